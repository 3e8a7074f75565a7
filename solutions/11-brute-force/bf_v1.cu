// Lesson 11, v1: shared memory and block-privatized output.
// SOLUTION.
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
  // HOLE(11-brute-force, v1): the block's tile of positions, from shared memory.
  extern __shared__ uint4 shared[];  // uint4: 16-byte aligned
  std::uint8_t* tile = reinterpret_cast<std::uint8_t*>(shared);
  const std::size_t staged = staged_bytes(m);
  std::uint8_t* s_pattern = tile + staged;
  const std::size_t tile_start = static_cast<std::size_t>(blockIdx.x) * kTile;

  // Stage the tile with 16-byte loads. DeviceText pads the text to a multiple of 16 bytes, so every
  // vector that starts before n lies inside the allocation.
  const uint4* source = reinterpret_cast<const uint4*>(text + tile_start);
  for (std::size_t v = threadIdx.x; v < staged / 16; v += kThreads) {
    reinterpret_cast<uint4*>(tile)[v] = tile_start + 16 * v < n ? source[v] : make_uint4(0, 0, 0, 0);
  }
  for (std::size_t j = threadIdx.x; j < m; j += kThreads) s_pattern[j] = pattern[j];
  __syncthreads();

  __shared__ BlockSumsTemp<kThreads> temp;  // lesson 07's: reusable as soon as a call returns

  const std::size_t last = n - m;  // the last position that can hold an occurrence
  unsigned found = 0;              // at most kRounds per thread
  unsigned long long next_slot = kPass == Pass::write ? offsets[blockIdx.x] : 0;
  for (int round = 0; round < kRounds; ++round) {
    // Consecutive threads take consecutive positions: their shared-memory bytes share words.
    const std::size_t local = static_cast<std::size_t>(round) * kThreads + threadIdx.x;
    bool match = tile_start + local <= last;
    for (std::size_t j = 0; match && j < m; ++j) match = tile[local + j] == s_pattern[j];
    if constexpr (kPass == Pass::write) {
      unsigned round_total = 0;
      const unsigned rank = block_exclusive_sum(match ? 1u : 0u, temp, round_total);
      if (match) positions[next_slot + rank] = tile_start + local;
      next_slot += round_total;
    } else {
      found += match;
    }
  }
  if constexpr (kPass != Pass::write) {
    const unsigned long long block_total = block_reduce_sum(found, temp);
    if (threadIdx.x == 0) {
      if constexpr (kPass == Pass::count) {
        atomicAdd(counts, block_total);  // one global atomic per block
      } else {
        counts[blockIdx.x] = block_total;
      }
    }
  }
  // END HOLE
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
