// Lesson 05 - grid-stride loops.
// STARTER: complete the TODO in saxpy_grid_stride_kernel.
#include "common/cuda_check.hpp"
#include "grid_stride.hpp"

namespace {

__global__ void saxpy_monolithic_kernel(float a, const float* __restrict__ x, float* __restrict__ y, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void saxpy_grid_stride_kernel(float a, const float* __restrict__ x, float* __restrict__ y, std::size_t n) {
  // TODO(05-grid-stride-loops): loop over the whole array with the whole grid.
  //   Start at this thread's global index (blockIdx.x * blockDim.x + threadIdx.x, in std::size_t)
  //   and step by the number of threads in the grid (blockDim.x * gridDim.x, in std::size_t) while
  //   i < n, doing y[i] = a * x[i] + y[i] at each step. Consecutive threads still touch consecutive
  //   elements in every step, so the accesses stay coalesced.
}

}  // namespace

void saxpy_monolithic(float a, const float* x, float* y, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  const unsigned threads = 256;
  saxpy_monolithic_kernel<<<static_cast<unsigned>((n + threads - 1) / threads), threads, 0, stream>>>(a, x, y, n);
  CUDA_CHECK_LAUNCH();
}

void saxpy_grid_stride(float a, const float* x, float* y, std::size_t n, unsigned blocks, unsigned threads,
                       cudaStream_t stream) {
  if (n == 0) return;
  saxpy_grid_stride_kernel<<<blocks, threads, 0, stream>>>(a, x, y, n);
  CUDA_CHECK_LAUNCH();
}

unsigned blocks_for_device(unsigned blocks_per_sm) {
  int device = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return blocks_per_sm * static_cast<unsigned>(sms);
}
