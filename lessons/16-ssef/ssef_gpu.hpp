// Lesson 16 - SSEF on the GPU: the versions and their table. Each version is a constant defined, with its
// one-line summary, in its own file (ssef_v0.cu to ssef_v2.cu); engine/gpu_matcher.hpp says what its two entry points
// do. The table is what the driver, the tests and `cudamatch` (through lesson.json) search with.
#pragma once

#include "engine/gpu_matcher.hpp"

namespace cudamatch::lesson16 {

extern const GpuVersion v0, v1, v2;

}  // namespace cudamatch::lesson16

inline const cudamatch::GpuAlgorithm& ssef_gpu() {
  using namespace cudamatch::lesson16;
  static const cudamatch::GpuAlgorithm algorithm{cudamatch::Algorithm::ssef, {v0, v1, v2}};
  return algorithm;
}
