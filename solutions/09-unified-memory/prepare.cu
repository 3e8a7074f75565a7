// Lesson 09 - unified memory: getting managed memory to the GPU before the kernel needs it.
// SOLUTION.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "common/buffers.hpp"
#include "unified.hpp"

using cudamatch::CudaEvent;

bool prepare_for_gpu(const unsigned char* text, std::size_t n, int device, cudaStream_t stream) {
  if (!concurrent_managed_access(device)) return false;
  if (n == 0) return true;
  // HOLE(09-unified-memory, step 1): advise read-mostly, then prefetch the whole range to the device.
  advise(text, n, cudaMemAdviseSetReadMostly, device);
  prefetch_async(text, n, device, stream);
  // END HOLE
  return true;
}

bool count_in_chunks(const unsigned char* text, std::size_t n, unsigned char byte, std::size_t chunk_bytes, int device,
                     unsigned long long* dev_count, cudaStream_t compute_stream, cudaStream_t prefetch_stream) {
  if (chunk_bytes == 0) throw std::invalid_argument("count_in_chunks: chunk_bytes must be > 0");
  if (!concurrent_managed_access(device)) {
    enqueue_count(text, n, byte, dev_count, compute_stream);
    return false;
  }
  const std::size_t chunks = (n + chunk_bytes - 1) / chunk_bytes;
  std::vector<CudaEvent> prefetched(chunks), counted(chunks);
  // HOLE(09-unified-memory, step 2): prefetch chunk i while chunk i - 1 is counted, two chunks ahead at most.
  for (std::size_t i = 0; i < chunks; ++i) {
    const unsigned char* chunk = text + i * chunk_bytes;
    const std::size_t bytes = std::min(chunk_bytes, n - i * chunk_bytes);
    if (i >= 2) CUDA_CHECK(cudaStreamWaitEvent(prefetch_stream, counted[i - 2].get()));
    advise(chunk, bytes, cudaMemAdviseSetReadMostly, device);
    prefetch_async(chunk, bytes, device, prefetch_stream);
    prefetched[i].record(prefetch_stream);
    CUDA_CHECK(cudaStreamWaitEvent(compute_stream, prefetched[i].get()));
    enqueue_count(chunk, bytes, byte, dev_count, compute_stream);
    counted[i].record(compute_stream);
  }
  // END HOLE
  return true;
}
