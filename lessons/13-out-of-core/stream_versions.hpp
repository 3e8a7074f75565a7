// Lesson 13: the versions of the streamed search and the pieces they are built from. Each version
// takes one input through the staging ring, chunk after chunk, and hands every chunk's window, once
// it is on the device, to job.search in the order of the chunks; the caller reads the result back.
//
// v0  (given) a pageable buffer and one stream: read, copy, search, wait, next chunk
// v1  pinned slots, the copy and the search on two streams with events: chunk k + 1 crosses the link
//     while chunk k is searched; one thread reads
// v2  reader threads fill the ring while the queue copies and searches: reading, copying and
//     searching all run at once
#pragma once

#include <cstddef>
#include <cstdint>

#include "byte_source.hpp"
#include "chunk_plan.hpp"
#include "chunk_search.hpp"
#include "staging.hpp"

namespace lesson13 {

// What every version works with.
struct StreamJob {
  ByteSource& source;
  const ChunkPlan& plan;
  Staging& staging;     // slot(k) carries chunk k; a copy stream and a search stream
  ChunkSearch& search;  // search.search(window, offset, stream): each chunk, in order
  unsigned readers;     // v2's reader threads (1 when the source must be read in order)
};

// Reads chunk k's window into `into` (room for job.plan.window_bytes() bytes) and returns its length:
// 0 when there is no chunk k (the input ended before its window held m bytes).
std::size_t read_window(const StreamJob& job, std::uint64_t chunk, std::uint8_t* into);

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

}  // namespace lesson13
