// The streamed search (lesson 17) - where the bytes come from: a host buffer, a file, or a pipe (standard input). The
// streamed search reads each chunk's window straight into a pinned staging buffer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/byte_view.hpp"

namespace cudamatch {

class ByteSource {
 public:
  virtual ~ByteSource() = default;
  ByteSource() = default;
  ByteSource(const ByteSource&) = delete;
  ByteSource& operator=(const ByteSource&) = delete;

  // Copies the input's bytes [offset, offset + bytes) into `into`, fewer only where the input ends;
  // returns how many. Throws FileError naming the input and the reason when it cannot read.
  virtual std::size_t read(std::uint64_t offset, std::uint8_t* into, std::size_t bytes) = 0;
  // Whether read() takes any offset, from several threads at once (a file, a host buffer). When not
  // (a pipe), one thread reads the chunks' windows in order (see SequentialSource).
  virtual bool random_access() const = 0;
  // The input's length when it is known before reading it all (not for a pipe).
  virtual std::optional<std::uint64_t> size() const = 0;
};

// Bytes already in host memory (the view must outlive the source).
class MemorySource final : public ByteSource {
 public:
  explicit MemorySource(ByteView bytes) : bytes_(bytes) {}
  std::size_t read(std::uint64_t offset, std::uint8_t* into, std::size_t bytes) override;
  bool random_access() const override { return true; }
  std::optional<std::uint64_t> size() const override { return bytes_.size; }

 private:
  ByteView bytes_;
};

// A file, read with pread(2): any offset, from any thread, straight from the page cache when the
// file is there. Throws FileError when the file cannot be opened or is a directory.
class FileSource final : public ByteSource {
 public:
  explicit FileSource(const std::string& path);
  ~FileSource() override;
  std::size_t read(std::uint64_t offset, std::uint8_t* into, std::size_t bytes) override;
  bool random_access() const override { return true; }
  std::optional<std::uint64_t> size() const override { return size_; }
  const std::string& path() const { return path_; }
  int descriptor() const { return fd_; }  // open for reading while the source lives

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

// A stream read front to back (standard input, a pipe; `fd` stays open). Windows overlap: each read
// starts at or after the previous one's start and no later than its end, and the bytes the two share
// (at most `overlap`, m - 1 for the streamed search) come from a copy kept of the previous read's
// last bytes. std::logic_error for a read out of that order.
class SequentialSource final : public ByteSource {
 public:
  SequentialSource(int fd, std::string name, std::size_t overlap);
  std::size_t read(std::uint64_t offset, std::uint8_t* into, std::size_t bytes) override;
  bool random_access() const override { return false; }
  std::optional<std::uint64_t> size() const override { return std::nullopt; }

 private:
  int fd_;
  std::string name_;
  std::size_t overlap_;
  std::vector<std::uint8_t> kept_;  // the input's bytes [kept_from_, end_)
  std::uint64_t kept_from_ = 0;
  std::uint64_t end_ = 0;  // how far the stream has been read
  bool at_end_ = false;
};

}  // namespace cudamatch
