// Where the patterns come from: the command line (PATTERN, -e), a file of one pattern per line (-f), a
// file of raw bytes (--raw-pattern-file), or hex digits (--hex).
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

// grep's patterns: `bytes` split at each newline, one pattern per line (a last newline ends the last
// line). `source` names where they came from in errors ("the pattern file 'p.txt'", "-e"). Throws
// UsageError when `bytes` is empty or a line is empty (an empty pattern would match everywhere):
// "SOURCE: line N is empty ...".
std::vector<std::vector<std::uint8_t>> pattern_lines(const std::vector<std::uint8_t>& bytes, const std::string& source);

// ASCII case folding for -i: out[i] is in[i] with 'A'-'Z' made 'a'-'z', every other byte (>= 0x80
// included) unchanged. `out` may be `in`.
void ascii_lower(const std::uint8_t* in, std::size_t n, std::uint8_t* out);

}  // namespace cudamatch::cli
