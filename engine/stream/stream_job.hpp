// The streamed search: what a version of it (lesson 17's v0, v1, v2) works with. A version takes one
// input through the staging ring, chunk after chunk, and hands every chunk's window, once it is on the
// device, to job.search in the order of the chunks; StreamSearcher (stream_search.hpp) reads the result
// back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "engine/stream/byte_source.hpp"
#include "engine/stream/chunk_plan.hpp"
#include "engine/stream/chunk_search.hpp"
#include "engine/stream/staging.hpp"

namespace cudamatch {

struct StreamJob {
  ByteSource& source;
  const ChunkPlan& plan;
  Staging& staging;     // slot(k) carries chunk k; a copy stream and a search stream
  ChunkSearch& search;  // search.search(window, offset, stream): each chunk, in order
  unsigned readers;     // reader threads (1 when the source must be read in order)
};

// A version of the streamed search: how the chunks cross the link.
struct StreamVersion {
  std::string name;     // "v0", "v1", "v2"
  std::string summary;  // one line: what this version overlaps
  void (*run)(StreamJob& job);
};

// Reads chunk k's window into `into` (room for job.plan.window_bytes() bytes) and returns its length:
// 0 when there is no chunk k (the input ended before its window held m bytes).
std::size_t read_window(const StreamJob& job, std::uint64_t chunk, std::uint8_t* into);

}  // namespace cudamatch
