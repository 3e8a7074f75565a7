// Lesson 13, v1: both tables and the pattern in shared memory, one atomic per block, ordered output.
// STARTER: complete the TODO in bm_v1_kernel (the rest is given).
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

  // TODO(13-boyer-moore, v1): the tables in shared memory, then this thread's chunk.
  //   1. Copy the bad-character table: last_index[c] = tables.last_index[c] for the 256 byte values
  //      (kThreads == 256: one entry per thread). When kTablesInShared (if constexpr), also copy the m
  //      entries of tables.good_suffix to s_good_suffix and the m pattern bytes to the bytes right after
  //      them (reinterpret_cast<std::uint8_t*>(s_good_suffix + m)), threads t, t + kThreads, ...;
  //      otherwise the search reads those two from global memory (the fallback). __syncthreads().
  //   2. Thread t of block b owns the window starts first = (b * kThreads + t) * chunk_length(m) up to
  //      chunk_length(m) of them, none past n - m: windows = min(chunk, n - m + 1 - first), 0 when
  //      first > n - m (no call then: text + first may lie past the text).
  //   3. Count this chunk's occurrences with boyer_moore_chunk (bm_search.cuh) on text + first, windows,
  //      the pattern and good-suffix table from shared memory (or global, in the fallback) and the
  //      shared last_index; the callback gets offsets s in the chunk.
  //   4. finish_block_pass<kPass>(found, temp, counts, offsets, positions, write_again)
  //      (engine/block_pass.cuh),
  //      where write_again(std::uint64_t* out) runs the same search again and writes first + s to
  //      *out++ for each occurrence.
  (void)text, (void)n, (void)pattern, (void)m, (void)tables, (void)counts, (void)offsets, (void)positions;
  (void)last_index, (void)temp, (void)s_good_suffix;
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
