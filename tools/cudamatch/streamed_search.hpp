// `cudamatch search` on the GPU for long inputs and standard input: the engine's streamed search
// (engine/stream/stream_search.hpp) with the version of lesson 17 that its manifest names ("search_with": v2, reader
// threads fill a ring of pinned buffers while earlier chunks cross the link and are searched). Output as for any other
// search: each chunk's offsets in file order, or the count.
#pragma once

#include <cstdint>
#include <string>

#include "common/bandwidth.hpp"
#include "engine/gpu_matcher.hpp"
#include "engine/stream/stream_search.hpp"

namespace cudamatch::cli {

// Regular files longer than this are streamed. Shorter ones are read in pieces and each piece is
// copied and searched in turn (scan_file and the GPU matcher). On an H200 streaming was faster at
// every size measured, 64 MiB to 4 GiB; smaller files were not measured, and the stream's ring of
// pinned buffers takes milliseconds to allocate (README, `cudamatch search`).
inline constexpr std::uint64_t kStreamAbove = 64 * kMiB;

// Whether the input at `path` is streamed: standard input ("-": its length is unknown, it may not end)
// and regular files longer than `threshold` bytes. A path that cannot be examined is not (scan_file
// then reports why).
bool wants_stream(const std::string& path, std::uint64_t threshold);

// The version of the streamed search that `cudamatch` streams with, in the track this build compiles
// (generated from the lessons' manifests: the lesson whose "streamed_search" names its versions, and
// the one its "search_with" names, else its last).
const StreamVersion& search_stream_version();

class StreamedSearch {
 public:
  // Searches with `version` for `pattern`, in chunks of `chunk_bytes` (0: the lesson's default), the
  // ring within half the device memory that is free now.
  StreamedSearch(const GpuVersion& version, ByteView pattern, std::size_t chunk_bytes);

  // Searches the input at `path` ("-": standard input). With `positions`, hands it each chunk's
  // offsets; without, counts. Returns the count. A progress bar (bytes, GB/s) shows on stderr for
  // files longer than kStreamAbove when `progress` allows it and stderr is a terminal. Throws
  // FileError when the input cannot be read.
  std::uint64_t search(const std::string& path, const PositionsSink& positions, bool progress);

 private:
  StreamSearcher searcher_;
};

}  // namespace cudamatch::cli
