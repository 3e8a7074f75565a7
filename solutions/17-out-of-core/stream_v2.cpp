// Lesson 17, v2: reader threads fill the ring while this thread (the queue) only queues copies and
// searches.
// SOLUTION.
//
// Reader r reads chunks r, r + R, r + 2R, ... each into its slot as soon as the slot is free again:
// the queue has taken the chunk that held it before (ChunkRing) and the copy engine has finished
// reading it (the slot's `copied` event). Reading from the page cache, the copy over the link and the
// search then all run at once, and several readers read faster than one.
#include <optional>

#include "common/cuda_check.hpp"
#include "stream_versions.hpp"

namespace lesson17 {

void v2_stream(StreamJob& job) {
  // HOLE(17-out-of-core, v2): readers fill the ring, this thread queues.
  ChunkRing ring(job.staging.size());
  const unsigned readers = job.readers;
  const ReaderThreads threads(ring, readers, [&](unsigned r) {
    for (std::uint64_t k = r;; k += readers) {
      if (!ring.wait_to_fill(k)) return;
      Slot& slot = job.staging.slot(k);
      CUDA_CHECK(cudaEventSynchronize(slot.copied.get()));  // the copy of chunk k - K has left the buffer
      const std::size_t bytes = read_window(job, k, slot.host.data());
      ring.filled(k, bytes);
      if (bytes == 0) return;
    }
  });

  std::optional<std::uint64_t> waiting;  // copied, not yet searched (as in v1)
  for (std::uint64_t k = 0;; ++k) {
    const std::size_t bytes = ring.wait_filled(k);
    if (bytes == 0) break;
    Slot& slot = job.staging.slot(k);
    queue_copy(job.staging, slot, bytes);
    ring.taken(k);
    if (waiting) queue_search(job, job.staging.slot(*waiting), job.plan.offset(*waiting));
    waiting = k;
  }
  if (waiting) queue_search(job, job.staging.slot(*waiting), job.plan.offset(*waiting));
  // END HOLE
}

}  // namespace lesson17
