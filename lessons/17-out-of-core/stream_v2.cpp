// Lesson 17, v2: reader threads fill the ring while this thread (the queue) only queues copies and
// searches.
// STARTER: complete the TODO in v2_stream (v1's queue_copy and queue_search first).
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
  // TODO(17-out-of-core, v2): readers fill the ring, this thread queues.
  //   1. ChunkRing ring(job.staging.size()); R = job.readers.
  //   2. Start the readers: const ReaderThreads threads(ring, R, [&](unsigned r) { ... }); reader r,
  //      for k = r, r + R, r + 2R, ...:
  //        a. if (!ring.wait_to_fill(k)) return;   (the queue has taken chunk k - K, or all is stopped)
  //        b. Slot& slot = job.staging.slot(k); wait for its copy event, as v1 does:
  //           CUDA_CHECK(cudaEventSynchronize(slot.copied.get()));
  //        c. bytes = read_window(job, k, slot.host.data()); ring.filled(k, bytes);
  //        d. return when bytes is 0 (the input has ended).
  //      ReaderThreads stops the ring and joins the threads when `threads` goes out of scope, and
  //      hands a reader's exception to the queue.
  //   3. The queue, on this thread: as v1's loop, with the reading replaced by the ring. For k = 0, 1, ...:
  //        bytes = ring.wait_filled(k) (0: stop the loop); queue_copy(job.staging, job.staging.slot(k), bytes);
  //        ring.taken(k) (only now may a reader refill the slot: its copied event is recorded);
  //        then the search of the waiting chunk and waiting = k, exactly as in v1.
  //      After the loop, the search of the chunk still waiting.
  (void)job;
}

}  // namespace lesson17
