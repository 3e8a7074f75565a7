// Lesson 13 - Boyer-Moore on the GPU: the versions and their table. Each version is a constant defined, with its
// one-line summary, in its own file (bm_v0.cu to bm_v2.cu); engine/gpu_matcher.hpp says what its two entry points
// do. The table is what the driver, the tests and `cudamatch` (through lesson.json) search with.
#pragma once

#include "bm_tables.hpp"
#include "engine/chunked_tiles.hpp"
#include "engine/gpu_matcher.hpp"
#include "short_patterns.hpp"

namespace cudamatch::lesson13 {

extern const GpuVersion v0, v1, v2;

// v2 hands patterns of up to kV2ShortPath bytes to lesson 11's short path (short_patterns.hpp there):
// Boyer-Moore's shifts cannot exceed m, and a direct compare of every position is faster on every
// corpus (docs/results/lesson-13.md).
constexpr std::size_t kV2ShortPath = 4;

// v2's layout for a pattern of m bytes (engine/chunked_tiles.hpp): beside the tile, the m - 1 bytes its
// last windows reach past it, the good-suffix table (4m) and the pattern (m). Patterns whose table is
// not built on the GPU (m > kMaxGoodSuffixOnGpu) take v1.
__host__ __device__ constexpr TileLayout v2_layout(std::size_t m) {
  return m > kMaxGoodSuffixOnGpu ? TileLayout{0, 0, 0} : odd_word_tiles(m, round16(m - 1) + 4 * m + round16(m));
}

}  // namespace cudamatch::lesson13

inline const cudamatch::GpuAlgorithm& boyer_moore_gpu() {
  using namespace cudamatch::lesson13;
  static const cudamatch::GpuAlgorithm algorithm{cudamatch::Algorithm::bm, {v0, v1, v2}};
  return algorithm;
}
