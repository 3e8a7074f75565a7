// The CPU reference of lesson 01's adds, shared by the tests and the driver. A float add is
// correctly rounded on both sides, so the comparison is exact (bitwise: a NaN poison never matches).
#pragma once

#include <cstddef>
#include <cstring>
#include <vector>

// How many c[i] for i in [first, first + count) differ from a[i] + b[i].
inline std::size_t count_add_errors(const std::vector<float>& a, const std::vector<float>& b, const float* c,
                                    std::size_t first, std::size_t count) {
  std::size_t errors = 0;
  for (std::size_t i = first; i < first + count; ++i) {
    const float expected = a[i] + b[i];
    if (std::memcmp(&expected, &c[i], sizeof(float)) != 0) ++errors;
  }
  return errors;
}
