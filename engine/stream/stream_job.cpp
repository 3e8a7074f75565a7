#include "engine/stream/stream_job.hpp"

namespace cudamatch {

std::size_t read_window(const StreamJob& job, std::uint64_t chunk, std::uint8_t* into) {
  const std::size_t bytes = job.source.read(job.plan.offset(chunk), into, job.plan.window_bytes());
  return bytes < job.plan.pattern_bytes ? 0 : bytes;
}

}  // namespace cudamatch
