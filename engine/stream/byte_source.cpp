#include "engine/stream/byte_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "common/file_io.hpp"

namespace cudamatch {

namespace {

// `name: the reason errno gives`.
FileError io_error(const std::string& name) { return FileError(name + ": " + std::strerror(errno)); }

}  // namespace

std::size_t MemorySource::read(std::uint64_t offset, std::uint8_t* into, std::size_t bytes) {
  if (offset >= bytes_.size) return 0;
  const std::size_t count = static_cast<std::size_t>(std::min<std::uint64_t>(bytes, bytes_.size - offset));
  std::memcpy(into, bytes_.data + offset, count);
  return count;
}

FileSource::FileSource(const std::string& path) : path_(path), fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC)) {
  if (fd_ < 0) throw io_error(path_);
  struct stat info {};
  if (::fstat(fd_, &info) != 0 || S_ISDIR(info.st_mode)) {
    const FileError error = S_ISDIR(info.st_mode) ? FileError(path_ + ": Is a directory") : io_error(path_);
    ::close(fd_);
    throw error;
  }
  size_ = static_cast<std::uint64_t>(info.st_size);
}

FileSource::~FileSource() { ::close(fd_); }

std::size_t FileSource::read(std::uint64_t offset, std::uint8_t* into, std::size_t bytes) {
  std::size_t got = 0;
  while (got < bytes) {
    const ssize_t r = ::pread(fd_, into + got, bytes - got, static_cast<off_t>(offset + got));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw io_error(path_);
    if (r == 0) break;  // the end of the file
    got += static_cast<std::size_t>(r);
  }
  return got;
}

SequentialSource::SequentialSource(int fd, std::string name, std::size_t overlap)
    : fd_(fd), name_(std::move(name)), overlap_(overlap) {}

std::size_t SequentialSource::read(std::uint64_t offset, std::uint8_t* into, std::size_t bytes) {
  if (at_end_ && offset >= end_) return 0;
  if (offset < kept_from_ || offset > end_) {
    throw std::logic_error(name_ + " is read front to back: bytes " + std::to_string(offset) +
                           " on asked for when what is kept starts at " + std::to_string(kept_from_) +
                           " and the input was read up to " + std::to_string(end_));
  }
  const std::size_t from_kept = static_cast<std::size_t>(std::min<std::uint64_t>(end_ - offset, bytes));
  if (from_kept > 0) std::memcpy(into, kept_.data() + (offset - kept_from_), from_kept);
  std::size_t got = from_kept;
  while (got < bytes && !at_end_) {
    const ssize_t r = ::read(fd_, into + got, bytes - got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw io_error(name_);
    at_end_ = r == 0;
    got += static_cast<std::size_t>(std::max<ssize_t>(r, 0));
  }
  if (got == from_kept) return got;  // nothing new was read: what is kept stays

  // Keep the stream's last `overlap_` bytes: those before `offset` from the old copy, the rest from `into`.
  const std::uint64_t new_end = offset + got;
  const std::size_t keep = static_cast<std::size_t>(std::min<std::uint64_t>(overlap_, new_end));
  const std::uint64_t new_from = new_end - keep;
  const std::uint64_t split = std::max(new_from, offset);
  std::vector<std::uint8_t> next(keep);
  if (split > new_from) std::memcpy(next.data(), kept_.data() + (new_from - kept_from_), split - new_from);
  if (new_end > split) std::memcpy(next.data() + (split - new_from), into + (split - offset), new_end - split);
  kept_ = std::move(next);
  kept_from_ = new_from;
  end_ = new_end;
  return got;
}

}  // namespace cudamatch
