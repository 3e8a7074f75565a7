// Lesson 17, v0: the baseline without overlap. Given.
// One pageable buffer, one device window, one stream, and every stage waits for the one before:
// read chunk k's window, copy it (from pageable memory the driver stages the copy through its own
// pinned buffer, and the call returns only when it is done), search it, wait for the search, and
// only then read chunk k + 1. At any moment one of the three (the reading host, the link, the GPU)
// works and the other two wait.
#include "common/cuda_check.hpp"
#include "stream_versions.hpp"

namespace lesson17 {

void v0_stream(StreamJob& job) {
  std::uint8_t* buffer = job.staging.pageable();
  DeviceWindow& window = job.staging.slot(0).device;
  const cudaStream_t stream = job.staging.search_stream();
  for (std::uint64_t k = 0;; ++k) {
    const std::size_t bytes = read_window(job, k, buffer);
    if (bytes == 0) return;
    window.load(buffer, bytes, stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    job.search.search(window.text(), job.plan.offset(k), stream);
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
}

}  // namespace lesson17
