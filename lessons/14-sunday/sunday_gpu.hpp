// Lesson 14 - Sunday's Quick Search on the GPU: the versions and their table. Each version is a constant defined, with
// its one-line summary, in its own file (sunday_v0.cu to sunday_v2.cu); engine/gpu_matcher.hpp says what its two entry
// points do. The table is what the driver, the tests and `cudamatch` (through lesson.json) search with.
#pragma once

#include "engine/chunked_tiles.hpp"
#include "engine/gpu_matcher.hpp"
#include "short_patterns.hpp"

namespace cudamatch::lesson14 {

extern const GpuVersion v0, v1, v2;

// v2 hands patterns of up to kV2ShortPath bytes to lesson 11's short path (short_patterns.hpp there):
// Quick Search's shifts cannot exceed m + 1, and a direct compare of every position is faster on every
// corpus (docs/results/lesson-14.md).
constexpr std::size_t kV2ShortPath = 2;

// v2's layout for a pattern of m bytes (engine/chunked_tiles.hpp): beside the tile, the m bytes its last
// windows reach past it (the shift byte after a window included) and the pattern.
__host__ __device__ constexpr TileLayout v2_layout(std::size_t m) { return odd_word_tiles(m, round16(m) + m); }

}  // namespace cudamatch::lesson14

inline const cudamatch::GpuAlgorithm& sunday_gpu() {
  using namespace cudamatch::lesson14;
  static const cudamatch::GpuAlgorithm algorithm{cudamatch::Algorithm::sunday, {v0, v1, v2}};
  return algorithm;
}
