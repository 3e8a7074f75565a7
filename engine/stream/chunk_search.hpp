// The streamed search (lesson 17) - what happens to a chunk once its window is on the device, in the two modes of every
// matcher (engine/gpu_matcher.hpp). Count mode adds the window's occurrences to one device counter
// and never waits: the counts of all chunks are read back once, at the end. Positions mode finds the
// window's occurrences, copies them back, shifts them by the window's offset in the input and hands
// them on before it returns: sorted within the chunk, and chunks come in order, so in file order.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "engine/gpu_matcher.hpp"

namespace cudamatch {

// Receives each chunk's occurrences (offsets in the input), chunk after chunk.
using PositionsSink = std::function<void(const std::vector<std::uint64_t>& positions)>;
// Told how far into the input the searches have been queued (bytes), after each chunk.
using ProgressSink = std::function<void(std::uint64_t bytes)>;

class ChunkSearch {
 public:
  explicit ChunkSearch(ProgressSink progress) : progress_(std::move(progress)) {}
  virtual ~ChunkSearch() = default;
  ChunkSearch(const ChunkSearch&) = delete;
  ChunkSearch& operator=(const ChunkSearch&) = delete;

  // Searches `window`, which starts at `offset` in the input and holds at least m bytes, on `stream`.
  // Count mode only queues the search; positions mode returns once the positions are handed on.
  void search(const DeviceText& window, std::uint64_t offset, cudaStream_t stream) {
    run(window, offset, stream);
    if (progress_) progress_(offset + window.size());
  }
  // After the last chunk: the number of occurrences in the whole input (waits for `stream`).
  virtual std::uint64_t finish(cudaStream_t stream) = 0;

 private:
  virtual void run(const DeviceText& window, std::uint64_t offset, cudaStream_t stream) = 0;
  ProgressSink progress_;
};

// The count of every occurrence with `matcher`. The counter is zeroed on `stream` now.
std::unique_ptr<ChunkSearch> count_search(const GpuVersion& matcher, const DevicePattern& pattern, cudaStream_t stream,
                                          ProgressSink progress = {});

// Every occurrence with `matcher`, handed to `sink`; `positions` is the device buffer the matcher
// writes them to (kept by the caller, so that it is not reallocated for every input).
std::unique_ptr<ChunkSearch> positions_search(const GpuVersion& matcher, const DevicePattern& pattern,
                                              DeviceBuffer<std::uint64_t>& positions, PositionsSink sink,
                                              ProgressSink progress = {});

}  // namespace cudamatch
