// Lesson 14: what v1 and v2 share: the block size, their static shared memory, the shift table built in
// shared memory, and the end of every pass (engine/block_pass.cuh; engine/search_passes.cuh explains the
// passes).
#pragma once

#include "engine/block_pass.cuh"
#include "engine/search_passes.cuh"
#include "sunday_gpu.hpp"

namespace cudamatch::lesson14 {

constexpr int kThreads = 256;  // v1 and v2's blocks

using BlockTemp = BlockPassTemp<kThreads>;
// The shift table and BlockTemp are the kernels' static shared memory.
static_assert(256 * sizeof(int) + sizeof(BlockTemp) <= kStaticSharedBytes, "static shared memory over budget");

// Copies the pattern to shared memory and builds its shift table there, the whole block at once: every
// entry m + 1, then atomicMin(&shift[byte], m - j) for each pattern byte at index j (the last occurrence
// of a byte gives its smallest shift, whichever thread runs first). Every thread of the block calls it.
__device__ inline void build_shift_table(const std::uint8_t* __restrict__ pattern, std::size_t m,
                                         std::uint8_t* s_pattern, int* shift) {
  for (unsigned c = threadIdx.x; c < 256; c += kThreads) shift[c] = static_cast<int>(m + 1);
  for (std::size_t j = threadIdx.x; j < m; j += kThreads) s_pattern[j] = pattern[j];
  __syncthreads();
  for (std::size_t j = threadIdx.x; j < m; j += kThreads) atomicMin(&shift[s_pattern[j]], static_cast<int>(m - j));
  __syncthreads();
}

}  // namespace cudamatch::lesson14
