// Lesson 07 - what reductions.cu (yours) and histogram_given.cu (given) share: the launch shape of the
// sums and the histograms, the alignment check, the byte loop of both histograms, and the launch of
// your privatized histogram. Given: histogram_bytes (histogram_given.cu) launches the global-atomic
// histogram, the baseline your privatized one is measured against, with these same definitions.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace cudamatch::lesson07 {

constexpr int kThreads = 256;
// 8 blocks of 256 threads per SM: 2,048 threads, all that an sm_70, sm_80 or sm_90 SM holds at once (one
// full wave); an sm_86/89 SM holds 1,536 and an sm_75 SM 1,024, so there the grid runs in more than one
// wave (the grid-stride loops are right either way).
constexpr int kBlocksPerSm = 8;
constexpr int kUnroll = 4;  // 16-byte loads in flight per thread (common/ceilings.cu reads the same way)

// kBlocksPerSm blocks per SM of this device (histogram_given.cu).
unsigned grid_blocks();

// Throws std::invalid_argument, naming `what`, unless p is 16-byte aligned (histogram_given.cu).
void require_aligned(const void* p, const char* what);

// Calls count(byte) for every byte of bytes[0 .. n - 1] this thread owns in a grid-stride loop over
// 16-byte vectors (kUnroll loads in flight); the last n % 16 bytes go to the first threads.
template <class Count>
__device__ void for_each_byte(const std::uint8_t* __restrict__ bytes, std::size_t n, Count count) {
  const uint4* vectors = reinterpret_cast<const uint4*>(bytes);
  const std::size_t vector_count = n / 16;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  for (std::size_t base = first; base < vector_count; base += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::size_t i = base + u * stride;
      v[u] = i < vector_count ? vectors[i] : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      if (base + u * stride >= vector_count) break;
      const unsigned words[4] = {v[u].x, v[u].y, v[u].z, v[u].w};
#pragma unroll
      for (int w = 0; w < 4; ++w) {
#pragma unroll
        for (int k = 0; k < 4; ++k) count((words[w] >> (8 * k)) & 0xFFu);
      }
    }
  }
  if (16 * vector_count + first < n) count(bytes[16 * vector_count + first]);
}

// Launches histogram_private_kernel (reductions.cu, step 5) on grid_blocks() blocks of kThreads in
// `stream`: histogram_bytes has already zeroed `bins`, checked the alignment, and launches nothing
// for n == 0.
void launch_histogram_private(const std::uint8_t* bytes, std::size_t n, unsigned* bins, cudaStream_t stream);

}  // namespace cudamatch::lesson07
