// Lesson 13, v1: both tables and the pattern in shared memory, one atomic per block, ordered output.
// SOLUTION.
//
// v0 looks everything up in global memory. A warp's 32 bad-character lookups are 32 data-dependent
// addresses spread over the 1 KB table, up to 8 different 128-byte lines that L1 serves one line at a
// time; the good-suffix lookups and the pattern bytes, the same. v1 copies the two tables (from the
// scratch slots the host filled, as in v0) and the pattern into shared memory at the start of every
// block: 1 KB + 4m + m bytes. A lookup is then one shared-memory load, and 32 different entries only
// conflict when two of them are different words of the same bank.
//
// Fallback: when the good-suffix table and the pattern (5m bytes) do not fit in the 46 KB of dynamic
// shared memory (m > 9,420), they stay in global memory, read through L1, and only the bad-character
// table moves to shared memory (bm_v1_kernel<..., false>).
//
// The threads of a block own consecutive chunks (chunk_length(m) window starts each, as in v0), so
// thread order is position order: count mode adds the block's occurrences with ONE global atomic;
// positions mode writes them in order (block_passes.cuh: count per block, scan, write).
#include "block_passes.cuh"
#include "bm_search.cuh"

namespace cudamatch::lesson13 {

namespace {

template <Pass kPass, bool kTablesInShared>
__global__ void __launch_bounds__(kThreads)
    bm_v1_kernel(const std::uint8_t* __restrict__ text, std::size_t n, const std::uint8_t* __restrict__ pattern,
                 std::size_t m, unsigned long long* __restrict__ counts, const unsigned long long* __restrict__ offsets,
                 std::uint64_t* __restrict__ positions, DeviceTables tables) {
  __shared__ std::int32_t last_index[256];
  __shared__ BlockTemp temp;
  extern __shared__ std::int32_t s_good_suffix[];  // kTablesInShared: m entries, then the pattern's m bytes

  // HOLE(13-boyer-moore, v1): the tables in shared memory, then this thread's chunk.
  last_index[threadIdx.x] = tables.last_index[threadIdx.x];  // kThreads == 256: one entry per thread
  const std::int32_t* good_suffix = tables.good_suffix;
  const std::uint8_t* p = pattern;
  if constexpr (kTablesInShared) {
    auto* s_pattern = reinterpret_cast<std::uint8_t*>(s_good_suffix + m);
    for (std::size_t i = threadIdx.x; i < m; i += kThreads) {
      s_good_suffix[i] = tables.good_suffix[i];
      s_pattern[i] = pattern[i];
    }
    good_suffix = s_good_suffix;
    p = s_pattern;
  }
  __syncthreads();

  const std::size_t chunk = chunk_length(m);
  const std::size_t first = (static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x) * chunk;
  const std::size_t candidates = n - m + 1;
  const std::size_t windows = first >= candidates ? 0 : candidates - first < chunk ? candidates - first : chunk;
  const auto search = [&](auto on_match) {
    if (windows > 0)
      boyer_moore_chunk(text + first, windows, p, static_cast<int>(m), last_index, good_suffix, on_match);
  };
  unsigned found = 0;
  search([&](std::size_t) { ++found; });
  finish_block_pass<kPass>(found, temp, counts, offsets, positions,
                           [&](std::uint64_t* out) { search([&](std::size_t s) { *out++ = first + s; }); });
  // END HOLE
}
static_assert(kThreads == 256, "bm_v1_kernel copies one bad-character entry per thread");

bool tables_fit_in_shared(std::size_t m) { return 5 * m <= kDynamicSharedBytes; }

Launch plan(const DeviceText& text, std::size_t m) {
  return {blocks_covering(text, m, kThreads * chunk_length(m)), kThreads, tables_fit_in_shared(m) ? 5 * m : 0};
}

void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  const DeviceTables tables = upload_tables(pattern, stream);
  const std::size_t m = pattern.size();
  enqueue_count_pass(tables_fit_in_shared(m) ? bm_v1_kernel<Pass::count, true> : bm_v1_kernel<Pass::count, false>,
                     plan(text, m), text, pattern, count, stream, tables);
}

std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                        cudaStream_t stream) {
  const DeviceTables tables = upload_tables(pattern, stream);
  const std::size_t m = pattern.size();
  if (tables_fit_in_shared(m)) {
    return positions_in_passes(bm_v1_kernel<Pass::count_per_block, true>, bm_v1_kernel<Pass::write, true>,
                               plan(text, m), text, pattern, positions, stream, tables);
  }
  return positions_in_passes(bm_v1_kernel<Pass::count_per_block, false>, bm_v1_kernel<Pass::write, false>,
                             plan(text, m), text, pattern, positions, stream, tables);
}

}  // namespace

const GpuVersion v1{"v1", "tables and pattern in shared memory, one atomic per block, ordered output", count,
                    positions};

}  // namespace cudamatch::lesson13
