// Test inputs cut or built from bytes, shared by the test programs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace cudamatch::testing {

// The bytes of a string literal or string.
inline std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

// The m bytes of `text` from `at` (at + m <= text.size()).
inline std::vector<std::uint8_t> slice(const std::vector<std::uint8_t>& text, std::size_t at, std::size_t m) {
  return {text.begin() + static_cast<std::ptrdiff_t>(at), text.begin() + static_cast<std::ptrdiff_t>(at + m)};
}

// `period` repeated to n bytes (the last repetition cut).
inline std::vector<std::uint8_t> repeat_to(const std::string& period, std::size_t n) {
  std::vector<std::uint8_t> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<std::uint8_t>(period[i % period.size()]);
  return out;
}

}  // namespace cudamatch::testing
