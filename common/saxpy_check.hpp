// The CPU reference of SAXPY (lessons 00 and 05), shared by their tests and drivers.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

// How many y_out[i] differ from a * x[i] + y_in[i] (computed in double) by more than the rounding a
// float SAXPY may make, with or without a fused multiply-add: 2^-22 of |a x| + |y|.
inline std::size_t count_saxpy_errors(float a, const std::vector<float>& x, const std::vector<float>& y_in,
                                      const float* y_out, std::size_t n) {
  std::size_t errors = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double ax = static_cast<double>(a) * x[i];
    const double expected = ax + y_in[i];
    const double tolerance = std::ldexp(std::fabs(ax) + std::fabs(static_cast<double>(y_in[i])), -22);
    if (!(std::fabs(y_out[i] - expected) <= tolerance)) ++errors;  // NaN counts as an error
  }
  return errors;
}
