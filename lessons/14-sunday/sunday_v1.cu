// Lesson 14, v1: the shift table and the pattern in shared memory, built by each block.
// STARTER: complete the TODO in search_chunk (the rest is given).
//
// v0 looked up its shift table in global memory: a warp's 32 lookups are 32 different addresses, up to
// 8 different 128-byte lines of the 1 KB table, served one line at a time by L1. The host built that
// table and copied it before every search (a host synchronization per search). v1 builds the table in
// shared memory at the start of every block: every entry m + 1, then for each pattern byte c at index j,
// atomicMin(shift[c], m - j): the last occurrence gives the smallest shift whatever order the threads
// run in. That costs 256 stores and m shared atomics per block, nothing on the host. The pattern sits
// beside it. A lookup is then one shared-memory load; 32 different entries conflict only when two of
// them are different words of the same bank (c and c + 32, c + 64, ...).
//
// Why not constant memory: the constant cache serves a warp one address at a time, so 32 threads that
// look up 32 different bytes wait for up to 32 passes. It is the right place for values every thread
// of a warp reads at once (the pattern length), not for a table indexed by data.
//
// The threads of a block own consecutive chunks (chunk_length(m) window starts each, as in v0), so
// thread order is position order: count mode adds the block's matches with ONE global atomic; positions
// mode writes them in order through engine/search_passes.cuh (count per block, scan, write).
#include "block_passes.cuh"

namespace cudamatch::lesson14 {

namespace {

// Quick Search over the windows that start in [first, first + chunk) and at or before `last` (= n - m):
// calls on_match(position) for each occurrence, in order.
template <class OnMatch>
__device__ void search_chunk(const std::uint8_t* __restrict__ text, std::size_t first, std::size_t chunk,
                             std::size_t last, const std::uint8_t* s_pattern, std::size_t m, const int* shift,
                             OnMatch on_match) {
  // TODO(14-sunday, v1): the serial Quick Search of one thread, as v0's kernel does it (sunday_v0.cu).
  //   Nothing to do when first > last. Otherwise, for s = first, then s + shift[text[s + m]], ...:
  //   1. compare text[s .. s + m) with s_pattern[0 .. m) byte by byte; when all m bytes are equal,
  //      call on_match(s);
  //   2. stop when s == last: the last window has no byte after it (text[n] must not be read);
  //   3. shift: s += shift[text[s + m]]; stop when s >= first + chunk (the next thread's window) or s > last.
  (void)text, (void)first, (void)chunk, (void)last, (void)s_pattern, (void)m, (void)shift, (void)on_match;
}

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    sunday_v1_kernel(const std::uint8_t* __restrict__ text, std::size_t n, const std::uint8_t* __restrict__ pattern,
                     std::size_t m, unsigned long long* __restrict__ counts,
                     const unsigned long long* __restrict__ offsets, std::uint64_t* __restrict__ positions) {
  __shared__ int shift[256];
  __shared__ BlockTemp temp;
  extern __shared__ std::uint8_t s_pattern[];
  build_shift_table(pattern, m, s_pattern, shift);

  const std::size_t chunk = chunk_length(m);
  const std::size_t first = (static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x) * chunk;
  const std::size_t last = n - m;
  unsigned found = 0;
  search_chunk(text, first, chunk, last, s_pattern, m, shift, [&](std::size_t) { ++found; });

  finish_block_pass<kPass>(found, temp, counts, offsets, positions, [&](std::uint64_t* out) {
    search_chunk(text, first, chunk, last, s_pattern, m, shift, [&](std::size_t p) { *out++ = p; });
  });
}

Launch plan(const DeviceText& text, std::size_t m) {
  return {blocks_covering(text, m, kThreads * chunk_length(m)), kThreads, m};
}

// Patterns too long to fit in shared memory beside the table (over 46 KB) fall back to v0.
void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  if (pattern.size() > kDynamicSharedBytes) return v0.enqueue_count(text, pattern, count, stream);
  enqueue_count_pass(sunday_v1_kernel<Pass::count>, plan(text, pattern.size()), text, pattern, count, stream);
}

std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                        cudaStream_t stream) {
  if (pattern.size() > kDynamicSharedBytes) return v0.positions(text, pattern, positions, stream);
  return positions_in_passes(sunday_v1_kernel<Pass::count_per_block>, sunday_v1_kernel<Pass::write>,
                             plan(text, pattern.size()), text, pattern, positions, stream);
}

}  // namespace

const GpuVersion v1{"v1",
                    "shift table and pattern built in shared memory per block, one atomic per block, ordered output",
                    count, positions};

}  // namespace cudamatch::lesson14
