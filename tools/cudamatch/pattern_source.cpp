#include "pattern_source.hpp"

#include <cctype>

#include "common/file_io.hpp"

namespace cudamatch::cli {

namespace {
int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}
}  // namespace

std::vector<std::uint8_t> decode_hex(const std::string& hex) {
  std::string digits;
  std::size_t start = hex.rfind("0x", 0) == 0 || hex.rfind("0X", 0) == 0 ? 2 : 0;
  for (std::size_t i = start; i < hex.size(); ++i) {
    const char c = hex[i];
    if (std::isspace(static_cast<unsigned char>(c))) continue;
    if (hex_value(c) < 0) {
      throw UsageError("--hex: '" + std::string(1, c) + "' at position " + std::to_string(i + 1) +
                       " is not a hex digit");
    }
    digits += c;
  }
  if (digits.size() % 2 != 0)
    throw UsageError("--hex: an odd number of hex digits (" + std::to_string(digits.size()) + ")");
  std::vector<std::uint8_t> bytes(digits.size() / 2);
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<std::uint8_t>(hex_value(digits[2 * i]) * 16 + hex_value(digits[2 * i + 1]));
  }
  return bytes;
}

std::vector<std::uint8_t> load_pattern(PatternKind kind, const std::string& value) {
  std::vector<std::uint8_t> pattern;
  switch (kind) {
    case PatternKind::file:
      pattern = read_file(value);
      break;
    case PatternKind::hex:
      pattern = decode_hex(value);
      break;
    case PatternKind::literal:
      pattern.assign(value.begin(), value.end());
      break;
  }
  if (pattern.empty())
    throw UsageError(kind == PatternKind::file ? "the pattern file '" + value + "' is empty" : "the pattern is empty");
  return pattern;
}

std::vector<std::vector<std::uint8_t>> pattern_lines(const std::vector<std::uint8_t>& bytes,
                                                     const std::string& source) {
  if (bytes.empty()) throw UsageError(source + " is empty: no pattern to search for");
  std::vector<std::vector<std::uint8_t>> lines;
  std::size_t start = 0;
  while (start < bytes.size()) {
    std::size_t end = start;
    while (end < bytes.size() && bytes[end] != '\n') ++end;
    if (end == start) {
      throw UsageError(source + ": line " + std::to_string(lines.size() + 1) +
                       " is empty (an empty pattern would match everywhere)");
    }
    lines.emplace_back(bytes.begin() + static_cast<std::ptrdiff_t>(start),
                       bytes.begin() + static_cast<std::ptrdiff_t>(end));
    start = end + 1;
  }
  return lines;
}

void ascii_lower(const std::uint8_t* in, std::size_t n, std::uint8_t* out) {
  // Without a branch the compiler vectorizes the loop: about 20 GB/s instead of 3.5 (one core).
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint8_t b = in[i];
    out[i] = static_cast<std::uint8_t>(b + (static_cast<std::uint8_t>(b - 'A') < 26 ? 'a' - 'A' : 0));
  }
}

}  // namespace cudamatch::cli
