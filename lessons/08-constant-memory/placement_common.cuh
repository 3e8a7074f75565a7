// Lesson 08 - what constant_memory.cu (yours) and given_placements.cu (given) share: the launch shape,
// the per-warp total, the byte and index helpers of the kernels, and the argument checks of the
// wrappers. Given, like the global and shared versions the constant ones are measured against.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "constant_memory.hpp"

// Internal linkage, as when these lived in one .cu file: each translation unit has its own copy.
namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kBlocksPerSm = 8;  // 2048 threads: a full sm_80/sm_90 multiprocessor (lesson 05)

// Adds this thread's `value` to *total with one atomic per warp. Every thread of the block must call it
// (the warp's lanes exchange their values first).
__device__ void add_to_total(unsigned long long value, unsigned long long* total) {
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  if (threadIdx.x % 32 == 0 && value != 0) atomicAdd(total, value);
}

// Byte k (0..15) of a 16-byte word, in memory order (little-endian words).
__device__ __forceinline__ unsigned byte_at(const uint4& w, unsigned k) {
  const unsigned word = k < 4 ? w.x : k < 8 ? w.y : k < 12 ? w.z : w.w;
  return (word >> (8 * (k % 4))) & 0xffu;
}

__device__ __forceinline__ std::size_t thread_index() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::size_t grid_threads() { return static_cast<std::size_t>(blockDim.x) * gridDim.x; }

}  // namespace

namespace cudamatch::lesson08 {

// A grid-stride grid for `items` units of work: enough blocks to fill the GPU, no more than the work.
unsigned grid_for(std::size_t items);

// Throws std::invalid_argument when m is 0 or above kMaxPattern.
void check_pattern_length(unsigned m);

// Zeroes *count; true when there is a window to compare (n >= m).
bool start_count(std::size_t n, unsigned m, unsigned long long* count, cudaStream_t stream);

// Zeroes *sum; true when there is a byte to look up. Throws std::invalid_argument unless `text` is
// 16-byte aligned.
bool start_sum(const std::uint8_t* text, std::size_t n, unsigned long long* sum, cudaStream_t stream);

}  // namespace cudamatch::lesson08
