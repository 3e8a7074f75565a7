// Lesson 09 - unified memory: getting managed memory to the GPU before the kernel needs it.
// STARTER: complete the TODOs in prepare_for_gpu and count_in_chunks.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "common/buffers.hpp"
#include "unified.hpp"

using cudamatch::CudaEvent;

bool prepare_for_gpu(const unsigned char* text, std::size_t n, int device, cudaStream_t stream) {
  if (!concurrent_managed_access(device)) return false;
  if (n == 0) return true;
  // TODO(09-unified-memory, step 1): advise read-mostly, then prefetch the whole range to the device.
  //   advise(text, n, cudaMemAdviseSetReadMostly, device) tells the driver that the GPU will only read
  //   the range: a prefetch then makes a read-only copy on the GPU and the host keeps its own. Then
  //   queue prefetch_async(text, n, device, stream) (cudaMemPrefetchAsync), so that the pages cross in
  //   bulk, in large transfers, before the kernel starts, instead of fault by fault while it runs.
  (void)text, (void)device, (void)stream;
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
  // TODO(09-unified-memory, step 2): prefetch chunk i while chunk i - 1 is counted, two chunks ahead at most.
  //   For each chunk i, starting at text + i * chunk_bytes, of min(chunk_bytes, n - i * chunk_bytes) bytes:
  //   - from i = 2 on, make prefetch_stream wait for counted[i - 2] (cudaStreamWaitEvent): a prefetch
  //     running further ahead would evict the chunks not yet counted when the text does not fit;
  //   - advise the chunk read-mostly (evicting a read-only copy costs no copy back) and prefetch it to
  //     `device` in prefetch_stream, then record prefetched[i] there;
  //   - make compute_stream wait for prefetched[i], enqueue_count the chunk into dev_count there and
  //     record counted[i].
  (void)text, (void)byte, (void)dev_count, (void)compute_stream, (void)prefetch_stream;
  return true;
}
