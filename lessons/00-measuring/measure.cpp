// Lesson 00 - measuring: counting bytes and timing with CUDA events.
// STARTER: complete the TODOs.
#include "common/cuda_check.hpp"
#include "saxpy.hpp"

std::uint64_t saxpy_bytes_moved(std::size_t n) {
  // TODO(00-measuring, step 2): count the bytes.
  //   For every element the kernel reads x[i] and y[i] and writes y[i], each a 4-byte float. Nothing
  //   is cached between elements, so each access is one trip to DRAM. Return the total for n elements
  //   as a 64-bit number.
  (void)n;
  return 0;
}

float elapsed_ms_with_events(const std::function<void(cudaStream_t)>& work, cudaStream_t stream) {
  // TODO(00-measuring, step 3): time `work` on the GPU's own clock.
  //   1. Create two events (cudaEventCreate) and record the first on `stream` (cudaEventRecord).
  //   2. Queue the work: work(stream).
  //   3. Record the second event on `stream`, wait for it (cudaEventSynchronize), and read the time
  //      between them (cudaEventElapsedTime). Destroy both events. Wrap every call in CUDA_CHECK.
  work(stream);
  return 0.0f;
}
