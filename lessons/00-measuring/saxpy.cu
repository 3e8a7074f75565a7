// Lesson 00 - measuring: the SAXPY kernel.
// STARTER: complete the TODO.
#include "common/cuda_check.hpp"
#include "saxpy.hpp"

namespace {

__global__ void saxpy_kernel(float a, const float* __restrict__ x, float* __restrict__ y, std::size_t n) {
  // TODO(00-measuring, step 1): one thread per element.
  //   Compute this thread's element index i from blockIdx.x, blockDim.x and threadIdx.x. Do the
  //   arithmetic in std::size_t: an int overflows past 2^31 elements. The last block is only partly
  //   needed (n is rarely a multiple of the block size), so only when i < n: y[i] = a * x[i] + y[i].
}

}  // namespace

void saxpy(float a, const float* x, float* y, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  const unsigned threads = 256;
  const auto blocks = static_cast<unsigned>((n + threads - 1) / threads);
  saxpy_kernel<<<blocks, threads, 0, stream>>>(a, x, y, n);
  CUDA_CHECK_LAUNCH();
}
