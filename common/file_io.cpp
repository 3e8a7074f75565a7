#include "common/file_io.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace cudamatch {

namespace {
struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

[[noreturn]] void fail(const std::string& what, const std::string& path, int err) {
  throw FileError(what + " '" + path + "': " + std::strerror(err));
}
}  // namespace

std::vector<std::uint8_t> read_file(const std::string& path) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) fail("cannot open", path, errno);
  if (S_ISDIR(info.st_mode)) throw FileError("'" + path + "' is a directory");

  File file(std::fopen(path.c_str(), "rb"));
  if (!file) fail("cannot open", path, errno);
  std::vector<std::uint8_t> bytes;
  if (S_ISREG(info.st_mode)) bytes.reserve(static_cast<std::size_t>(info.st_size));
  std::uint8_t buffer[1 << 16];
  for (;;) {
    const std::size_t got = std::fread(buffer, 1, sizeof buffer, file.get());
    bytes.insert(bytes.end(), buffer, buffer + got);
    if (got < sizeof buffer) {
      if (std::ferror(file.get())) fail("cannot read", path, errno);
      break;
    }
  }
  return bytes;
}

void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  File file(std::fopen(path.c_str(), "wb"));
  if (!file) fail("cannot create", path, errno);
  if (std::fwrite(bytes.data(), 1, bytes.size(), file.get()) != bytes.size()) fail("cannot write", path, errno);
}

}  // namespace cudamatch
