// The streamed search: the occurrences of a pattern in an input longer than the GPU's memory (or than
// a device budget), streamed through a ring of pinned staging buffers and device windows, chunks
// overlapping by m - 1 bytes (chunk_plan.hpp), searched with any GPU matcher. Every occurrence is
// reported exactly once, in order. How the chunks cross the link is a StreamVersion (lesson 17 writes
// them: v0, v1, v2); lesson 17's driver and tests and `cudamatch search` run them here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/gpu_matcher.hpp"
#include "engine/stream/stream_job.hpp"

namespace cudamatch {

// Reader threads (lesson 17's v2) when none are asked for: the host's hardware threads but one (which queues
// the copies and searches), 1 to 16. One thread copies from the page cache at a fraction of the
// link's bandwidth (6.5 GB/s against 55 GB/s on the reference machine; README, "How many buffers in
// flight"), and the readers spend their time in that copy, not on a core's arithmetic.
unsigned default_readers();

struct StreamOptions {
  std::size_t chunk_bytes = 8 << 20;  // C: the positions of one chunk (grown to m - 1, the overlap rule)
  std::size_t device_budget = 0;      // device memory for the ring's windows, bytes; 0: no budget
  unsigned readers = default_readers();
  std::size_t slots = 0;  // the ring's slots (at least 2); 0: readers + 2, one in the copy, one searched
};

class StreamSearcher {
 public:
  // Plans the chunks and allocates the ring for `pattern` (throws as plan_chunks does: an empty
  // pattern, a budget that cannot hold the ring).
  StreamSearcher(const GpuVersion& matcher, ByteView pattern, const StreamOptions& options = {});

  // The number of occurrences in `source` (one read-back at the end).
  std::uint64_t count(const StreamVersion& version, ByteSource& source, const ProgressSink& progress = {});
  // Every occurrence in `source`, handed to `sink` chunk after chunk in input order; returns the count.
  std::uint64_t positions(const StreamVersion& version, ByteSource& source, const PositionsSink& sink,
                          const ProgressSink& progress = {});

  const ChunkPlan& plan() const { return plan_; }
  std::size_t slots() const { return staging_.size(); }
  unsigned readers() const { return readers_; }

 private:
  std::uint64_t run(const StreamVersion& version, ByteSource& source, ChunkSearch& search);

  const GpuVersion& matcher_;
  DevicePattern pattern_;
  unsigned readers_;
  ChunkPlan plan_;
  Staging staging_;
  DeviceBuffer<std::uint64_t> positions_;
};

}  // namespace cudamatch
