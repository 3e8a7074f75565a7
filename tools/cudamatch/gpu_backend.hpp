// The CUDA backend of `cudamatch`: the GPU versions of the lessons of the track this build compiled
// (a student's build runs the student's kernels), behind the same matcher interface as the CPU
// backend.
#pragma once

#include <memory>
#include <vector>

#include "engine/gpu_matcher.hpp"

namespace cudamatch::cli {

// The table of every matcher lesson this build compiles (generated from the lessons' manifests).
const std::vector<const GpuAlgorithm*>& gpu_algorithms();

// The GPU versions of `algorithm`, or null when it has none yet.
const GpuAlgorithm* gpu_algorithm(Algorithm algorithm);

// A matcher that searches each text it is given on the GPU with `version`: the text is copied to
// the device (one piece of a file at a time), searched, and the positions copied back.
std::unique_ptr<CpuMatcher> make_gpu_matcher(const GpuVersion& version, ByteView pattern);

}  // namespace cudamatch::cli
