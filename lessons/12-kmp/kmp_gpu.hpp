// Lesson 12 - Knuth-Morris-Pratt on the GPU: the versions and their table. Each version is a constant defined, with its
// one-line summary, in its own file (kmp_v0.cu to kmp_v3.cu); engine/gpu_matcher.hpp says what its two entry points
// do. The table is what the driver, the tests and `cudamatch` (through lesson.json) search with.
#pragma once

#include "engine/gpu_matcher.hpp"

namespace cudamatch::lesson12 {

extern const GpuVersion v0, v1, v2, v3;

}  // namespace cudamatch::lesson12

inline const cudamatch::GpuAlgorithm& kmp_gpu() {
  using namespace cudamatch::lesson12;
  static const cudamatch::GpuAlgorithm algorithm{cudamatch::Algorithm::kmp, {v0, v1, v2, v3}};
  return algorithm;
}
