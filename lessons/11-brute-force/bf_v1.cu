// Lesson 11, v1: shared memory and block-privatized output.
// STARTER: complete the TODO in bf_v1_kernel.
//
// Each block owns a tile of kTile consecutive positions. It stages the kTile + m - 1 text bytes those
// positions need in shared memory with 16-byte loads, and the pattern beside them, so the compare
// loops never touch global memory. Count mode: the block adds up its matches and issues ONE global
// atomic. Positions mode, in order and without a sort: pass 1 writes each block's count, an
// exclusive scan turns counts into each block's first output slot, pass 2 recomputes the matches and
// writes them there, in position order (a block-wide scan per round of kThreads positions). The block
// sum and the block scan are yours, from lesson 07 (block_sums.cuh).
#include <block_sums.cuh>  // block_reduce_sum, block_exclusive_sum: yours, from lesson 07

#include "engine/search_passes.cuh"
#include "brute_force_gpu.hpp"

namespace cudamatch::lesson11 {

namespace {

constexpr int kThreads = 256;
constexpr int kRounds = 16;                         // positions per thread
constexpr int kTile = kThreads * kRounds;           // positions per block: a multiple of 16, so tiles start aligned
constexpr std::size_t kMaxSharedBytes = 48 * 1024;  // the default limit per block on every GPU since sm_75

__host__ __device__ constexpr std::size_t staged_bytes(std::size_t m) { return (kTile + m - 1 + 15) / 16 * 16; }

template <Pass kPass>
__global__ void bf_v1_kernel(const std::uint8_t* __restrict__ text, std::size_t n,
                             const std::uint8_t* __restrict__ pattern, std::size_t m,
                             unsigned long long* __restrict__ counts, const unsigned long long* __restrict__ offsets,
                             std::uint64_t* __restrict__ positions) {
  // TODO(11-brute-force, v1): the block's tile of positions, from shared memory.
  //   Block b owns positions [b * kTile, (b + 1) * kTile); they need the text bytes
  //   [b * kTile, b * kTile + kTile + m - 1).
  //   1. Stage those bytes in dynamic shared memory (declare `extern __shared__ uint4 shared[];` and
  //      view it as bytes): staged_bytes(m) / 16 vectors, thread t loading vectors t, t + kThreads, ...
  //      as uint4 from text + b * kTile (aligned: kTile is a multiple of 16); a vector starting at or
  //      past n is not loaded (write zeros). Copy the m pattern bytes to shared memory right after the
  //      staged bytes. __syncthreads().
  //   2. For round r = 0 .. kRounds-1, thread t checks position b * kTile + r * kThreads + t (it can
  //      hold an occurrence only if it is <= n - m) by comparing the m bytes in shared memory.
  //   3. With your own block sums from lesson 07 (block_sums.cuh, one `__shared__ BlockSumsTemp<kThreads>
  //      temp;`): Pass::count and Pass::count_per_block: add up the matches per thread, sum them over
  //      the block with block_reduce_sum, and let thread 0 either atomicAdd the sum to counts[0] (count)
  //      or store it in counts[blockIdx.x] (count_per_block).
  //      Pass::write: per round, block_exclusive_sum over the match flags (1 or 0) gives each matching
  //      thread its rank and the round's total; write the position to positions[slot + rank], where
  //      slot starts at offsets[blockIdx.x] and grows by the round's total (temp may be used again at
  //      once: the function ends with a barrier).
}

Launch plan(const DeviceText& text, std::size_t m) {
  return {blocks_covering(text, m, kTile), kThreads, staged_bytes(m) + m};
}

// Patterns too long for the tile and pattern to fit in the default 48 KB of shared memory (about
// 22 KB) fall back to v0.
void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  const Launch launch = plan(text, pattern.size());
  if (launch.shared_bytes > kMaxSharedBytes) return v0.enqueue_count(text, pattern, count, stream);
  enqueue_count_pass(bf_v1_kernel<Pass::count>, launch, text, pattern, count, stream);
}

std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                        cudaStream_t stream) {
  const Launch launch = plan(text, pattern.size());
  if (launch.shared_bytes > kMaxSharedBytes) return v0.positions(text, pattern, positions, stream);
  return positions_in_passes(bf_v1_kernel<Pass::count_per_block>, bf_v1_kernel<Pass::write>, launch, text, pattern,
                             positions, stream);
}

}  // namespace

const GpuVersion v1{"v1", "shared-memory tile and pattern, one atomic per block, ordered output", count, positions};

}  // namespace cudamatch::lesson11
