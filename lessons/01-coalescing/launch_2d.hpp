// The launch shapes of lesson 01's 2-D kernels, shared by the starter and the solution.
#pragma once

#include <stdexcept>
#include <string>

#include "coalescing.hpp"

namespace lesson01 {

inline constexpr unsigned kBlockX = 32;  // one warp along x
inline constexpr unsigned kBlockY = 8;
inline constexpr int kTileY = 32;  // elements along y per block: 4 per thread

// A grid of blocks covering `x_extent` threads along x and `y_extent` elements along y.
inline dim3 grid_covering(int x_extent, int y_extent) {
  if (y_extent > kMaxExtentY) {
    throw std::invalid_argument("2-D add: " + std::to_string(y_extent) + " is too large for gridDim.y (at most " +
                                std::to_string(kMaxExtentY) + "); lesson 05's grid-stride loops lift this");
  }
  return dim3((static_cast<unsigned>(x_extent) + kBlockX - 1) / kBlockX,
              (static_cast<unsigned>(y_extent) + kTileY - 1) / kTileY);
}

}  // namespace lesson01
