// Lesson 00 - measuring: the SAXPY kernel.
// SOLUTION.
#include "common/cuda_check.hpp"
#include "saxpy.hpp"

namespace {

__global__ void saxpy_kernel(float a, const float* __restrict__ x, float* __restrict__ y, std::size_t n) {
  // HOLE(00-measuring, step 1): one thread per element.
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
  // END HOLE
}

}  // namespace

void saxpy(float a, const float* x, float* y, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  const unsigned threads = 256;
  const auto blocks = static_cast<unsigned>((n + threads - 1) / threads);
  saxpy_kernel<<<blocks, threads, 0, stream>>>(a, x, y, n);
  CUDA_CHECK_LAUNCH();
}
