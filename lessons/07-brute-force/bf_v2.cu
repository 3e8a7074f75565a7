// Lesson 07, v2: byte-SIMD filtering, 16 positions per thread. STARTER: complete the TODO in bf_v2_kernel.
//
// v1's profile: DRAM idle, warps divergent, an instruction per byte per position. v2 does the common
// case, a position that fails on its first two bytes, four positions per instruction: each thread
// loads the 16 text bytes of its 16 positions and the 16 after them as two uint4 (the second is the
// next thread's first, served by L1), and compares every 32-bit word with the pattern's first byte
// repeated four times (__vcmpeq4: 0xff in each equal byte) and the word one byte later (a funnel
// shift of two words) with its second byte. Only the few positions that pass both are verified byte
// by byte, from global memory through the caches. Threads own consecutive 16-position pieces, so
// thread order is position order: a block-wide scan of per-thread counts places the ordered output.
#include "common/search_passes.cuh"
#include "versions.hpp"

namespace lesson07 {

namespace {

using cudamatch::Launch;
using cudamatch::Pass;

constexpr int kThreads = 256;
constexpr int kPositionsPerThread = 16;  // one uint4 of text
constexpr std::size_t kTile = static_cast<std::size_t>(kThreads) * kPositionsPerThread;

template <Pass kPass>
__global__ void bf_v2_kernel(const std::uint8_t* __restrict__ text, std::size_t n,
                             const std::uint8_t* __restrict__ pattern, std::size_t m,
                             unsigned long long* __restrict__ counts, const unsigned long long* __restrict__ offsets,
                             std::uint64_t* __restrict__ positions) {
  // TODO(07-brute-force, v2): 16 positions per thread, four at a time.
  //   Thread t of block b owns the positions p0 = b * kTile + 16 t ... p0 + 15 (none if p0 > n - m).
  //   1. Load text[p0, p0 + 16) and text[p0 + 16, p0 + 32) as two uint4 (aligned; DeviceText pads the
  //      text so both are inside the allocation) and view them as five 32-bit words w[0..4].
  //   2. For k = 0..3: __vcmpeq4(w[k], pattern[0] * 0x01010101u) has 0xff in byte j when position
  //      p0 + 4k + j starts with the pattern's first byte; when m > 1, AND it with
  //      __vcmpeq4(__funnelshift_r(w[k], w[k + 1], 8), pattern[1] * 0x01010101u), the next byte.
  //   3. For each set byte (lowest first: __ffs), stop past n - m, verify pattern bytes 2..m-1 against
  //      the text in global memory, and count the match.
  //   4. count / count_per_block: as in v1 (cub::BlockReduce, one atomic or counts[blockIdx.x]).
  //      write: cub::BlockScan's ExclusiveSum of the per-thread counts gives each thread its first
  //      slot after offsets[blockIdx.x]; search the 16 positions again and write the matches there,
  //      in order (threads own consecutive positions, so thread order is position order).
}

Launch plan(const DeviceText& text, std::size_t m) {
  const std::size_t candidates = text.size() - m + 1;
  return {static_cast<unsigned>((candidates + kTile - 1) / kTile), kThreads, 0};
}

}  // namespace

void v2_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  cudamatch::enqueue_count_pass(bf_v2_kernel<Pass::count>, plan(text, pattern.size()), text, pattern, count, stream);
}

std::uint64_t v2_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream) {
  return cudamatch::positions_in_passes(bf_v2_kernel<Pass::count_per_block>, bf_v2_kernel<Pass::write>,
                                        plan(text, pattern.size()), text, pattern, positions, stream);
}

}  // namespace lesson07
