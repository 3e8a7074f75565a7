#include "gpu_sleep.hpp"

#include <cstdint>

#include "common/cuda_check.hpp"

namespace cudamatch::testing {

namespace {

__device__ std::uint64_t global_timer_ns() {
  std::uint64_t ns;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(ns));
  return ns;
}

__global__ void sleep_kernel(std::uint64_t nanoseconds) {
  const std::uint64_t start = global_timer_ns();
  while (global_timer_ns() - start < nanoseconds) __nanosleep(100000);
}

}  // namespace

void gpu_sleep(cudaStream_t stream, std::chrono::milliseconds duration) {
  const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(duration).count();
  sleep_kernel<<<1, 1, 0, stream>>>(static_cast<std::uint64_t>(ns));
  CUDA_CHECK(cudaGetLastError());  // not CUDA_CHECK_LAUNCH: with CUDAMATCH_SYNC_LAUNCHES it would wait here
}

}  // namespace cudamatch::testing
