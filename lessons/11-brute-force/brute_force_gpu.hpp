// Lesson 11 - brute force on the GPU: the versions and their table. Each version is a constant defined,
// with its one-line summary, in its own file (v0, given, is the engine's: engine/brute_force_v0.cu; v1 to
// v3 in bf_v1.cu to bf_v3.cu); engine/gpu_matcher.hpp says what its two entry points do. The table is
// what the driver, the tests and `cudamatch` (through lesson.json) search with.
#pragma once

#include <cstddef>
#include <cstdint>

#include "engine/brute_force_v0.hpp"
#include "engine/gpu_matcher.hpp"

namespace cudamatch::lesson11 {

inline constexpr const GpuVersion& v0 = brute_force_v0;
extern const GpuVersion v1, v2, v3;

// For the tests (bf_v3.cu, given): flags[i] = v3's word_flags(lo[i], hi[i]) for the pattern bytes
// first[0, used), used 1 to 4. lo, hi and flags are device memory of n words; only queues the work.
void v3_word_flags(const unsigned* lo, const unsigned* hi, std::size_t n, const std::uint8_t* first, unsigned used,
                   unsigned* flags, cudaStream_t stream);

}  // namespace cudamatch::lesson11

inline const cudamatch::GpuAlgorithm& brute_force_gpu() {
  using namespace cudamatch::lesson11;
  static const cudamatch::GpuAlgorithm algorithm{cudamatch::Algorithm::bf, {v0, v1, v2, v3}};
  return algorithm;
}
