#include "experiment_input.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "common/bandwidth.hpp"
#include "common/file_io.hpp"
#include "common/matchers/cpu_matcher.hpp"

namespace lesson17 {

namespace {
std::string temporary_path() {
  const char* dir = std::getenv("TMPDIR");
  return std::string(dir != nullptr && dir[0] != '\0' ? dir : "/tmp") + "/cudamatch-17-out-of-core-" +
         std::to_string(::getpid()) + ".bin";
}

void write_all(int fd, const std::uint8_t* data, std::size_t bytes, const std::string& path) {
  while (bytes > 0) {
    const ssize_t w = ::write(fd, data, bytes);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) throw cudamatch::FileError(path + ": " + std::strerror(errno));
    data += w;
    bytes -= static_cast<std::size_t>(w);
  }
}
}  // namespace

TemporaryCorpusFile::TemporaryCorpusFile(const std::vector<std::uint8_t>& corpus, std::uint64_t bytes)
    : path_(temporary_path()) {
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw cudamatch::FileError(path_ + ": " + std::strerror(errno));
  try {
    for (std::uint64_t written = 0; written < bytes;) {
      const std::size_t piece = static_cast<std::size_t>(std::min<std::uint64_t>(corpus.size(), bytes - written));
      write_all(fd, corpus.data(), piece, path_);
      written += piece;
    }
    if (::fsync(fd) != 0) throw cudamatch::FileError(path_ + ": " + std::strerror(errno));
  } catch (...) {
    ::close(fd);
    std::remove(path_.c_str());
    throw;
  }
  ::close(fd);
}

TemporaryCorpusFile::~TemporaryCorpusFile() { std::remove(path_.c_str()); }

std::uint64_t count_on_cpu(cudamatch::ByteSource& source, const std::vector<std::uint8_t>& pattern) {
  const auto algorithm = pattern.size() < 16 ? cudamatch::Algorithm::epsm : cudamatch::Algorithm::ssef;
  const auto matcher = cudamatch::make_cpu_matcher(algorithm, pattern);
  // Piece i holds the bytes [i * step, i * step + step + m - 1): the occurrences that start in its first
  // `step` bytes, each whole, and no other.
  const std::size_t step = 64 * cudamatch::kMiB;
  std::vector<std::uint8_t> piece(step + pattern.size() - 1);
  std::uint64_t count = 0;
  for (std::uint64_t offset = 0;; offset += step) {
    const std::size_t bytes = source.read(offset, piece.data(), piece.size());
    count += matcher->count(cudamatch::ByteView(piece.data(), bytes));
    if (bytes < piece.size()) return count;
  }
}

}  // namespace lesson17
