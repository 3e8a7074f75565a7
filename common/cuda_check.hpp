// Error checking for the CUDA runtime API.
//
//   CUDA_CHECK(cudaMalloc(&p, bytes));   // throws cudamatch::CudaError naming file, line, call, error
//   kernel<<<grid, block>>>(...);
//   CUDA_CHECK_LAUNCH();                 // launch-configuration errors surface here, not later
//
// Errors are thrown rather than printed-and-exited so that a test reports them as a failure of that
// test case and a command-line tool can turn them into one clear message.
#pragma once

#include <cuda_runtime.h>

#include <stdexcept>
#include <string>

namespace cudamatch {

class CudaError : public std::runtime_error {
 public:
  CudaError(cudaError_t code, const char* call, const char* file, int line);
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

inline void cuda_check(cudaError_t code, const char* call, const char* file, int line) {
  if (code != cudaSuccess) throw CudaError(code, call, file, line);
}

// Set CUDAMATCH_SYNC_LAUNCHES=1 in the environment to synchronize after every checked launch, so
// that an asynchronous fault inside a kernel is reported at the launch that caused it.
bool sync_after_launch();

}  // namespace cudamatch

#define CUDA_CHECK(call) ::cudamatch::cuda_check((call), #call, __FILE__, __LINE__)

#define CUDA_CHECK_LAUNCH()                                                                     \
  do {                                                                                          \
    ::cudamatch::cuda_check(cudaGetLastError(), "kernel launch", __FILE__, __LINE__);           \
    if (::cudamatch::sync_after_launch())                                                       \
      ::cudamatch::cuda_check(cudaDeviceSynchronize(), "kernel execution", __FILE__, __LINE__); \
  } while (0)
