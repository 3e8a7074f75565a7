// Lesson 12, v1: the failure table in shared memory, block-privatized ordered output.
// SOLUTION.
//
// v0 reads the pattern and the failure table from global memory at every step of the automaton, and
// takes a global atomic per match (on DNA with m = 2, one position in 16). v1:
//   - each block builds the failure table itself, in shared memory, in parallel
//     (build_failure_table, failure_table.cuh): no host work and no copy per search, so count mode
//     never waits for the host; the automaton's lookups then cost a shared-memory load each;
//   - the threads of a block own consecutive chunks (v0's chunks of max(4m, 256) positions), so the
//     block owns one consecutive range of positions and thread order is position order;
//   - count mode: the block adds up its threads' counts and issues ONE global atomic;
//   - positions mode, in order and without a sort: pass 1 writes each block's count, an exclusive
//     scan turns the counts into each block's first output slot, pass 2 gives each thread its first
//     slot with a block-wide scan of the per-thread counts, and each thread scans its chunk again,
//     writing its matches there in order.
// The text is still read byte by byte from global memory, each thread in its own chunk: v2's subject.
//
// Fallback: a pattern whose table does not fit in the default 48 KB of shared memory (m > 9,816)
// is searched by v0, which keeps the table in global memory.
#include "engine/block_pass.cuh"
#include "failure_table.cuh"
#include "kmp_gpu.hpp"

namespace cudamatch::lesson12 {

namespace {

constexpr int kThreads = 256;
using BlockTemp = BlockPassTemp<kThreads>;

// Positions per thread, as in v0: 4m (the m - 1 extra bytes cost at most 25%), at least 256.
__host__ __device__ std::size_t chunk_length(std::size_t m) { return 4 * m > 256 ? 4 * m : 256; }

// The failure table next[m + 1] (int32), then the m pattern bytes.
std::size_t table_bytes(std::size_t m) { return (m + 1) * sizeof(std::int32_t) + m; }

// HOLE(12-kmp, v1): the __device__ helper that scans one chunk (step 2 below) goes here.
// Runs the KMP automaton over the chunk starting at `first` and calls on_match(position) for every
// occurrence starting in it, in order.
template <class OnMatch>
__device__ void scan_chunk(const std::uint8_t* __restrict__ text, std::size_t n, const std::uint8_t* s_pattern,
                           const std::int32_t* s_next, int m, std::size_t first, OnMatch on_match) {
  if (first + m > n) return;  // no occurrence can start in this chunk
  const std::size_t end = min(first + chunk_length(m) + m - 1, n);
  int state = 0;
  for (std::size_t i = first; i < end; ++i) {
    const std::uint8_t c = text[i];
    while (state > -1 && s_pattern[state] != c) state = s_next[state];
    if (++state == m) {
      on_match(i + 1 - m);
      state = s_next[m];
    }
  }
}
// END HOLE

template <Pass kPass>
__global__ void kmp_v1_kernel(const std::uint8_t* __restrict__ text, std::size_t n,
                              const std::uint8_t* __restrict__ pattern, std::size_t m,
                              unsigned long long* __restrict__ counts, const unsigned long long* __restrict__ offsets,
                              std::uint64_t* __restrict__ positions) {
  __shared__ BlockTemp temp;
  // HOLE(12-kmp, v1): the KMP automaton per thread, the tables in shared memory, ordered output.
  extern __shared__ std::int32_t tables[];
  const int length = static_cast<int>(m);
  std::int32_t* s_next = tables;
  std::uint8_t* s_pattern = reinterpret_cast<std::uint8_t*>(tables + length + 1);
  build_failure_table(pattern, length, s_pattern, s_next);

  const std::size_t first = (static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x) * chunk_length(m);
  unsigned found = 0;
  scan_chunk(text, n, s_pattern, s_next, length, first, [&](std::size_t) { ++found; });

  finish_block_pass<kPass>(found, temp, counts, offsets, positions, [&](std::uint64_t* out) {
    scan_chunk(text, n, s_pattern, s_next, length, first, [&](std::size_t position) { *out++ = position; });
  });
  // END HOLE
}

Launch plan(const DeviceText& text, std::size_t m) {
  return {blocks_covering(text, m, kThreads * chunk_length(m)), kThreads, table_bytes(m)};
}

bool fits_in_shared_memory(std::size_t m) { return table_bytes(m) + sizeof(BlockTemp) <= kSharedBytesPerBlock; }

void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  if (!fits_in_shared_memory(pattern.size())) return v0.enqueue_count(text, pattern, count, stream);
  enqueue_count_pass(kmp_v1_kernel<Pass::count>, plan(text, pattern.size()), text, pattern, count, stream);
}

std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                        cudaStream_t stream) {
  if (!fits_in_shared_memory(pattern.size())) return v0.positions(text, pattern, positions, stream);
  return positions_in_passes(kmp_v1_kernel<Pass::count_per_block>, kmp_v1_kernel<Pass::write>,
                             plan(text, pattern.size()), text, pattern, positions, stream);
}

}  // namespace

const GpuVersion v1{"v1", "failure table in shared memory, one atomic per block, ordered output", count, positions};

}  // namespace cudamatch::lesson12
