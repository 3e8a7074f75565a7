// Lesson 11, v2: byte-SIMD filtering, 16 positions per thread.
// SOLUTION.
//
// v1's profile: DRAM idle, warps divergent, an instruction per byte per position. v2 does the common
// case, a position that fails on its first two bytes, four positions per instruction: each thread
// loads the 16 text bytes of its 16 positions and the 16 after them as two uint4 (the second is the
// next thread's first, served by L1), and compares every 32-bit word with the pattern's first byte
// repeated four times (__vcmpeq4: 0xff in each equal byte) and the word one byte later (a funnel
// shift of two words) with its second byte. Only the few positions that pass both are verified byte
// by byte, from global memory through the caches. Threads own consecutive 16-position pieces, so
// thread order is position order: a block-wide scan of per-thread counts places the ordered output.
#include "brute_force_gpu.hpp"
#include "engine/block_pass.cuh"

namespace cudamatch::lesson11 {

namespace {

constexpr int kThreads = 256;
constexpr int kPositionsPerThread = 16;  // one uint4 of text
constexpr std::size_t kTile = static_cast<std::size_t>(kThreads) * kPositionsPerThread;

// Calls on_match(position) for every occurrence starting in this thread's 16 positions, in order.
template <class OnMatch>
__device__ void search_piece(const std::uint8_t* __restrict__ text, std::size_t n,
                             const std::uint8_t* __restrict__ pattern, std::size_t m, std::size_t first_position,
                             OnMatch on_match) {
  // HOLE(11-brute-force, v2): 16 positions per thread, four at a time.
  if (first_position > n - m) return;
  // DeviceText pads to a multiple of 16 bytes plus 16, so both vectors lie inside the allocation.
  const uint4 a = *reinterpret_cast<const uint4*>(text + first_position);
  const uint4 b = *reinterpret_cast<const uint4*>(text + first_position + 16);
  const unsigned words[5] = {a.x, a.y, a.z, a.w, b.x};
  const unsigned first = pattern[0] * 0x01010101u;  // the byte in all four lanes
  const unsigned second = m > 1 ? pattern[1] * 0x01010101u : 0u;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    // 0x80 in byte j: position 4k + j has the pattern's first byte, and (m > 1) its second after it.
    unsigned candidates = __vcmpeq4(words[k], first);
    if (m > 1) candidates &= __vcmpeq4(__funnelshift_r(words[k], words[k + 1], 8), second);
    candidates &= 0x80808080u;
    while (candidates != 0) {
      const int byte = (__ffs(candidates) - 1) / 8;
      candidates &= candidates - 1;
      const std::size_t position = first_position + 4 * k + byte;
      if (position > n - m) return;  // later positions are past the last possible start too
      std::size_t j = 2;
      while (j < m && text[position + j] == pattern[j]) ++j;
      if (j >= m) on_match(position);
    }
  }
  // END HOLE
}

template <Pass kPass>
__global__ void bf_v2_kernel(const std::uint8_t* __restrict__ text, std::size_t n,
                             const std::uint8_t* __restrict__ pattern, std::size_t m,
                             unsigned long long* __restrict__ counts, const unsigned long long* __restrict__ offsets,
                             std::uint64_t* __restrict__ positions) {
  __shared__ BlockPassTemp<kThreads> temp;
  const std::size_t first_position = static_cast<std::size_t>(blockIdx.x) * kTile + threadIdx.x * kPositionsPerThread;
  unsigned found = 0;
  search_piece(text, n, pattern, m, first_position, [&](std::size_t) { ++found; });
  finish_block_pass<kPass>(found, temp, counts, offsets, positions, [&](std::uint64_t* out) {
    search_piece(text, n, pattern, m, first_position, [&](std::size_t p) { *out++ = p; });
  });
}

Launch plan(const DeviceText& text, std::size_t m) { return {blocks_covering(text, m, kTile), kThreads, 0}; }

void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  enqueue_count_pass(bf_v2_kernel<Pass::count>, plan(text, pattern.size()), text, pattern, count, stream);
}

std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                        cudaStream_t stream) {
  return positions_in_passes(bf_v2_kernel<Pass::count_per_block>, bf_v2_kernel<Pass::write>, plan(text, pattern.size()),
                             text, pattern, positions, stream);
}

}  // namespace

const GpuVersion v2{"v2", "two-byte byte-SIMD filter, 16 positions per thread", count, positions};

}  // namespace cudamatch::lesson11
