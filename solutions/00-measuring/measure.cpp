// Lesson 00 - measuring: counting bytes and timing with CUDA events.
// SOLUTION.
#include "common/cuda_check.hpp"
#include "saxpy.hpp"

std::uint64_t saxpy_bytes_moved(std::size_t n) {
  // HOLE(00-measuring, step 2): count the bytes.
  // Read x[i], read y[i], write y[i]: three 4-byte accesses per element.
  return 3 * sizeof(float) * static_cast<std::uint64_t>(n);
  // END HOLE
}

float elapsed_ms_with_events(const std::function<void(cudaStream_t)>& work, cudaStream_t stream) {
  // HOLE(00-measuring, step 3): time `work` on the GPU's own clock.
  cudaEvent_t start = nullptr, stop = nullptr;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  CUDA_CHECK(cudaEventRecord(start, stream));
  work(stream);
  CUDA_CHECK(cudaEventRecord(stop, stream));
  CUDA_CHECK(cudaEventSynchronize(stop));
  float ms = 0.0f;
  CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return ms;
  // END HOLE
}
