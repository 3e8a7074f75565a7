// Where the pattern comes from: the command line, a file of raw bytes (-f), or hex digits (--hex).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace cudamatch::cli {

class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// "48656c6c6f" or "48 65 6C 6c 6f" (spaces and a leading 0x allowed) -> bytes. Throws UsageError for
// an odd number of digits or a character that is not a hex digit.
std::vector<std::uint8_t> decode_hex(const std::string& hex);

enum class PatternKind { literal, file, hex };

// The pattern's bytes: `value` itself, the contents of the file it names, or its hex digits decoded.
// Throws UsageError for an empty pattern or bad hex, FileError for an unreadable file.
std::vector<std::uint8_t> load_pattern(PatternKind kind, const std::string& value);

}  // namespace cudamatch::cli
