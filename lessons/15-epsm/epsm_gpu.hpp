// Lesson 15 - EPSM-alpha, packed string matching, on the GPU: the versions and their table. Each version is a constant
// defined, with its one-line summary, in its own file (epsm_v0.cu to epsm_v2.cu); engine/gpu_matcher.hpp says what its
// two entry points do. The table is what the driver, the tests and `cudamatch` (through lesson.json) search with.
#pragma once

#include <cstddef>

#include "engine/gpu_matcher.hpp"

namespace cudamatch::lesson15 {

extern const GpuVersion v0, v1, v2;

// Pattern bytes compared packed. A pattern of up to 16 bytes is compared whole: the bits left are the
// occurrences. A longer one is filtered on its first 16 bytes, and the positions that pass are verified
// on bytes 16 .. m-1. (The CPU's limit of 16 is the SSE register; here it is the 8 words a thread holds:
// its own 16 positions' bytes and the 16 bytes after them, which the shifts bring in.)
constexpr std::size_t kPacked = 16;

// The alignments of one thread (v0, v1) or lane (v2): a 16-byte block of text.
constexpr std::size_t kBlockBytes = 16;

}  // namespace cudamatch::lesson15

inline const cudamatch::GpuAlgorithm& epsm_gpu() {
  using namespace cudamatch::lesson15;
  static const cudamatch::GpuAlgorithm algorithm{cudamatch::Algorithm::epsm, {v0, v1, v2}};
  return algorithm;
}
