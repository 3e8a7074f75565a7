#include "file_scan.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "common/file_io.hpp"

namespace cudamatch::cli {

namespace {
struct Closer {
  bool close;
  void operator()(std::FILE* f) const {
    if (close) std::fclose(f);
  }
};
}  // namespace

void scan_file(const std::string& path, std::size_t overlap, std::size_t chunk_bytes,
               const std::function<void(ByteView, std::uint64_t)>& visit, std::size_t first_chunk_bytes) {
  const bool is_stdin = path == "-";
  if (!is_stdin) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) throw FileError(path + ": " + std::strerror(errno));
    if (S_ISDIR(info.st_mode)) throw FileError(path + ": Is a directory");
  }
  std::unique_ptr<std::FILE, Closer> file(is_stdin ? stdin : std::fopen(path.c_str(), "rb"), Closer{!is_stdin});
  if (!file) throw FileError(path + ": " + std::strerror(errno));

  std::vector<std::uint8_t> buffer(overlap + chunk_bytes);
  std::size_t kept = 0;      // bytes carried over from the previous piece
  std::uint64_t offset = 0;  // file offset of buffer[0]
  std::size_t piece_bytes = first_chunk_bytes == 0 ? chunk_bytes : std::min(first_chunk_bytes, chunk_bytes);
  bool first = true;
  for (;;) {
    const std::size_t wanted = kept + piece_bytes;
    std::size_t filled = kept;
    while (filled < wanted) {  // fill the piece completely unless the file ends
      const std::size_t got = std::fread(buffer.data() + filled, 1, wanted - filled, file.get());
      if (got == 0) break;
      filled += got;
    }
    if (std::ferror(file.get()))
      throw FileError((is_stdin ? std::string("standard input") : path) + ": " + std::strerror(errno));
    const bool at_end = filled < wanted;
    if (filled > kept || first) visit(ByteView(buffer.data(), filled), offset);
    first = false;
    if (at_end) return;
    kept = std::min(overlap, filled);
    piece_bytes = std::min(chunk_bytes, piece_bytes * 4);
    std::memmove(buffer.data(), buffer.data() + filled - kept, kept);
    offset += filled - kept;
  }
}

}  // namespace cudamatch::cli
