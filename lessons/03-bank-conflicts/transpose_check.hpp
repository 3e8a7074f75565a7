// The CPU reference of the transpose and the exact comparison, shared by the tests, the driver and
// the race demo.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

// `in` (rows x cols, row-major) transposed: out[c * rows + r] = in[r * cols + c].
inline std::vector<float> transpose_reference(const std::vector<float>& in, std::size_t rows, std::size_t cols) {
  std::vector<float> out(rows * cols);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) out[c * rows + r] = in[r * cols + c];
  }
  return out;
}

// How many of the n floats of `actual` differ from `expected` in any bit. A transpose moves values
// without arithmetic, so every bit must arrive: the 0xFF poison (a NaN) left in an unwritten element
// never matches a finite input, and -0.0 must stay -0.0, which a float comparison would not notice.
inline std::size_t count_mismatches(const float* expected, const float* actual, std::size_t n) {
  std::size_t mismatches = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t want = 0, got = 0;
    std::memcpy(&want, &expected[i], sizeof want);
    std::memcpy(&got, &actual[i], sizeof got);
    if (want != got) ++mismatches;
  }
  return mismatches;
}
