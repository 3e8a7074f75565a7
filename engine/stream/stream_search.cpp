#include "engine/stream/stream_search.hpp"

#include <algorithm>
#include <thread>

namespace cudamatch {

unsigned default_readers() {
  const unsigned threads = std::thread::hardware_concurrency();  // 0 when unknown
  return std::clamp(threads > 1 ? threads - 1 : 1u, 1u, 16u);
}

namespace {
std::size_t slot_count(const StreamOptions& options) {
  return options.slots != 0 ? options.slots : std::max(1u, options.readers) + std::size_t{2};
}
}  // namespace

StreamSearcher::StreamSearcher(const GpuVersion& matcher, ByteView pattern, const StreamOptions& options)
    : matcher_(matcher),
      pattern_(pattern),
      readers_(std::max(1u, options.readers)),
      plan_(plan_chunks(pattern.size, options.chunk_bytes, slot_count(options), options.device_budget)),
      staging_(plan_, slot_count(options)) {}

std::uint64_t StreamSearcher::count(const StreamVersion& version, ByteSource& source, const ProgressSink& progress) {
  const auto search = count_search(matcher_, pattern_, staging_.search_stream(), progress);
  return run(version, source, *search);
}

std::uint64_t StreamSearcher::positions(const StreamVersion& version, ByteSource& source, const PositionsSink& sink,
                                        const ProgressSink& progress) {
  const auto search = positions_search(matcher_, pattern_, positions_, sink, progress);
  return run(version, source, *search);
}

std::uint64_t StreamSearcher::run(const StreamVersion& version, ByteSource& source, ChunkSearch& search) {
  StreamJob job{source, plan_, staging_, search, source.random_access() ? readers_ : 1u};
  try {
    version.run(job);
  } catch (...) {
    // Let what was queued finish before the ring is used again or freed; the first error is the one
    // to report, so a second one from the wait is dropped.
    try {
      staging_.synchronize();
    } catch (...) {}
    throw;
  }
  staging_.synchronize();
  return search.finish(staging_.search_stream());
}

}  // namespace cudamatch
