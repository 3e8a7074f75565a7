// Lesson 17, v1: pinned slots and two streams.
// STARTER: complete the TODOs in queue_copy, queue_search and v1_stream.
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
  // TODO(17-out-of-core, v1): queue the copy of one chunk.
  //   1. Make the copy stream (staging.copy_stream()) wait for slot.searched:
  //      CUDA_CHECK(cudaStreamWaitEvent(copy, slot.searched.get())). The device window may still be
  //      searched for the chunk this slot carried before; the copy must not overwrite it under the search.
  //   2. slot.device.load(slot.host.data(), bytes, copy): the copy, queued on the copy stream.
  //   3. slot.copied.record(copy): later work waits for this event (the search of this chunk, and the
  //      host before it reads the next chunk into slot.host).
  (void)staging, (void)slot, (void)bytes;
}

void queue_search(StreamJob& job, Slot& slot, std::uint64_t offset) {
  // TODO(17-out-of-core, v1): queue the search of one chunk.
  //   1. Make the search stream (job.staging.search_stream()) wait for slot.copied (cudaStreamWaitEvent).
  //   2. job.search.search(slot.device.text(), offset, search_stream).
  //   3. slot.searched.record(search_stream): the next copy into this window waits for it.
  (void)job, (void)slot, (void)offset;
}

void v1_stream(StreamJob& job) {
  // TODO(17-out-of-core, v1): one thread reads; copies and searches overlap.
  //   Keep `std::optional<std::uint64_t> waiting`: the chunk whose copy is queued but not its search.
  //   For k = 0, 1, 2, ...:
  //     1. Slot& slot = job.staging.slot(k). Wait until the copy engine has finished reading the
  //        slot's pinned buffer (chunk k - K's copy): CUDA_CHECK(cudaEventSynchronize(slot.copied.get())).
  //     2. bytes = read_window(job, k, slot.host.data()); stop the loop when it is 0 (no chunk k).
  //     3. queue_copy(job.staging, slot, bytes).
  //     4. If a chunk is waiting, queue_search(job, job.staging.slot(*waiting), job.plan.offset(*waiting)).
  //        Searching chunk k - 1 only after chunk k's copy is queued lets the copy run during that
  //        search even in positions mode, where search() returns only when the positions are back.
  //     5. waiting = k.
  //   After the loop, queue the search of the chunk still waiting, if any.
  (void)job;
}

}  // namespace lesson17
