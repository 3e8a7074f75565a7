// The launch shapes of lesson 01's 2-D kernels, shared by the starter and the solution.
#pragma once

#include <stdexcept>
#include <string>

#include "coalescing.hpp"

namespace lesson01 {

inline constexpr unsigned kBlockX = 32;  // one warp along x
inline constexpr unsigned kBlockY = 8;

// A grid of kBlockX x kBlockY blocks covering `x_extent` threads along x and `y_extent` along y.
inline dim3 grid_covering(int x_extent, int y_extent) {
  const unsigned gy = (static_cast<unsigned>(y_extent) + kBlockY - 1) / kBlockY;
  if (gy > static_cast<unsigned>(kMaxGridY)) {
    throw std::invalid_argument("2-D add: " + std::to_string(y_extent) + " is too large for gridDim.y (at most " +
                                std::to_string(kMaxGridY * kBlockY) + "); lesson 05's grid-stride loops lift this");
  }
  return dim3((static_cast<unsigned>(x_extent) + kBlockX - 1) / kBlockX, gy);
}

}  // namespace lesson01
