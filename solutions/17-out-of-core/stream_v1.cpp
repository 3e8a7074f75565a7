// Lesson 17, v1: pinned slots and two streams.
// SOLUTION.
//
// One thread reads chunk k's window into the pinned buffer of slot k, queues its copy on the copy
// stream and then the search of chunk k - 1 on the search stream. Events order what must be ordered:
// a copy waits for the last search of its device window, a search for the copy of its chunk, and the
// host, before it reads into a pinned buffer, for the copy that last read that buffer. Everything
// else overlaps: the copy of chunk k with the search of chunk k - 1, and, in count mode (where
// nothing waits for the searches), the reading of chunk k + 1 with both.
#include <optional>

#include "common/cuda_check.hpp"
#include "stream_versions.hpp"

namespace lesson17 {

void queue_copy(Staging& staging, Slot& slot, std::size_t bytes) {
  // HOLE(17-out-of-core, v1): queue the copy of one chunk.
  const cudaStream_t copy = staging.copy_stream();
  CUDA_CHECK(cudaStreamWaitEvent(copy, slot.searched.get()));  // the window's last search is over
  slot.device.load(slot.host.data(), bytes, copy);
  slot.copied.record(copy);
  // END HOLE
}

void queue_search(StreamJob& job, Slot& slot, std::uint64_t offset) {
  // HOLE(17-out-of-core, v1): queue the search of one chunk.
  const cudaStream_t search = job.staging.search_stream();
  CUDA_CHECK(cudaStreamWaitEvent(search, slot.copied.get()));  // the chunk is on the device
  job.search.search(slot.device.text(), offset, search);
  slot.searched.record(search);
  // END HOLE
}

void v1_stream(StreamJob& job) {
  // HOLE(17-out-of-core, v1): one thread reads; copies and searches overlap.
  // The chunk whose copy is queued and whose search is not yet: searched after the next chunk's copy
  // is queued, so that in positions mode (where the search waits for its result) the copy runs meanwhile.
  std::optional<std::uint64_t> waiting;
  for (std::uint64_t k = 0;; ++k) {
    Slot& slot = job.staging.slot(k);
    CUDA_CHECK(cudaEventSynchronize(slot.copied.get()));  // the copy of chunk k - K has left the buffer
    const std::size_t bytes = read_window(job, k, slot.host.data());
    if (bytes == 0) break;
    queue_copy(job.staging, slot, bytes);
    if (waiting) queue_search(job, job.staging.slot(*waiting), job.plan.offset(*waiting));
    waiting = k;
  }
  if (waiting) queue_search(job, job.staging.slot(*waiting), job.plan.offset(*waiting));
  // END HOLE
}

}  // namespace lesson17
