// Lesson 17: the versions of the streamed search and their table. The engine streams any input through
// them (engine/stream/stream_search.hpp: the ring, the chunks, the searches); a version decides how the
// chunks cross the link. `cudamatch search` streams long inputs with the one lesson.json's "search_with"
// names (v2: v3 measured slower, docs/results/lesson-17.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/stream/chunk_ring.hpp"
#include "engine/stream/stream_job.hpp"

namespace lesson17 {

using cudamatch::ChunkRing;
using cudamatch::DeviceWindow;
using cudamatch::read_window;
using cudamatch::ReaderThreads;
using cudamatch::Slot;
using cudamatch::Staging;
using cudamatch::StreamJob;

// v0, given (stream_v0.cpp).
void v0_stream(StreamJob& job);

// v1 (stream_v1.cpp).
// Queues on the copy stream the copy of the first `bytes` of slot.host into slot.device, after the
// last search of that window; then records slot.copied.
void queue_copy(Staging& staging, Slot& slot, std::size_t bytes);
// Queues on the search stream the search of slot.device (the window of the chunk that starts at
// `offset`), after its copy; then records slot.searched.
void queue_search(StreamJob& job, Slot& slot, std::uint64_t offset);
void v1_stream(StreamJob& job);

// v2 (stream_v2.cpp), built on v1's queue_copy and queue_search.
void v2_stream(StreamJob& job);

// v3, given (stream_v3.cpp): v2 where the input is not a file whose pages the driver can register.
void v3_stream(StreamJob& job);

// The baseline first, then in the lesson's order.
inline const std::vector<cudamatch::StreamVersion>& stream_versions() {
  static const std::vector<cudamatch::StreamVersion> versions{
      {"v0", "pageable buffer, one stream: read, copy, search, wait", v0_stream},
      {"v1", "pinned ring, copy and search streams with events, one thread reads", v1_stream},
      {"v2", "reader threads fill the ring: reading, copying and searching overlap", v2_stream},
      {"v3", "the file's pages registered for DMA: the copy engine reads the page cache", v3_stream}};
  return versions;
}

}  // namespace lesson17
