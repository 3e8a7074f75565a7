#include "streamed_search.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <memory>

#include "common/cuda_check.hpp"
#include "common/table.hpp"
#include "progress.hpp"

namespace cudamatch::cli {

bool wants_stream(const std::string& path, std::uint64_t threshold) {
  if (path == "-") return true;
  struct stat info {};
  return ::stat(path.c_str(), &info) == 0 && S_ISREG(info.st_mode) &&
         static_cast<std::uint64_t>(info.st_size) > threshold;
}

namespace {

StreamOptions options_for(std::size_t chunk_bytes) {
  StreamOptions options;
  if (chunk_bytes != 0) options.chunk_bytes = chunk_bytes;
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  options.device_budget = free_bytes / 2;
  return options;
}

// "1.2 of 4.0 GiB, 41.3 GB/s".
std::string bytes_label(std::uint64_t done, std::uint64_t total, double seconds) {
  const auto gib = [](std::uint64_t bytes) { return fixed(static_cast<double>(bytes) / kGiB, 1); };
  return gib(done) + " of " + gib(total) + " GiB, " +
         fixed(seconds > 0 ? static_cast<double>(done) / seconds / 1e9 : 0.0, 1) + " GB/s";
}

}  // namespace

StreamedSearch::StreamedSearch(const GpuVersion& version, ByteView pattern, std::size_t chunk_bytes)
    : searcher_(version, pattern, options_for(chunk_bytes)) {}

std::uint64_t StreamedSearch::search(const std::string& path, const PositionsSink& positions, bool progress) {
  std::unique_ptr<ByteSource> source;
  if (path == "-") {
    source = std::make_unique<SequentialSource>(STDIN_FILENO, "standard input", searcher_.plan().overlap());
  } else {
    source = std::make_unique<FileSource>(path);
  }
  const std::uint64_t total = source->size().value_or(0);
  const bool long_input = progress && total > kStreamAbove;
  Progress bar(long_input ? total : 0);  // drawn only when stderr is a terminal
  const auto start = std::chrono::steady_clock::now();
  ProgressSink on_progress;
  if (long_input) {
    on_progress = [&](std::uint64_t done) {
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      bar.set(done, bytes_label(done, total, seconds));
    };
  }
  const StreamVersion& version = search_stream_version();
  return positions ? searcher_.positions(version, *source, positions, on_progress)
                   : searcher_.count(version, *source, on_progress);
}

}  // namespace cudamatch::cli
