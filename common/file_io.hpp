// Binary-safe file loading with errors a user can act on.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace cudamatch {

// Thrown with a message naming the file and the reason: "cannot open 'x': No such file or directory",
// "'x' is a directory", ...
class FileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The whole file, byte for byte.
std::vector<std::uint8_t> read_file(const std::string& path);

// Writes `bytes` to `path` (replacing it).
void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes);

}  // namespace cudamatch
