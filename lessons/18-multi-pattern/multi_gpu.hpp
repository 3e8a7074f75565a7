// Lesson 18 - multi-pattern search on the GPU: the versions and their table. Each version is a constant
// defined, with its one-line summary, in its own file (multi_v0.cu, pfac_v1.cu to pfac_v3.cu);
// engine/multi_matcher.hpp says what a version's pattern set does. The table is what the driver, the
// tests and `cudamatch` (through lesson.json, "multi_matcher") search with.
#pragma once

#include "engine/multi_matcher.hpp"

namespace cudamatch::lesson18 {

extern const GpuMultiVersion v0, v1, v2, v3;

}  // namespace cudamatch::lesson18

inline const cudamatch::GpuMultiAlgorithm& multi_gpu() {
  using namespace cudamatch::lesson18;
  static const cudamatch::GpuMultiAlgorithm algorithm{{v0, v1, v2, v3}};
  return algorithm;
}
