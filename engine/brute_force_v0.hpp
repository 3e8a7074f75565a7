// The given brute force (brute_force_v0.cu): lesson 11's v0, and the matcher of lesson 17's driver and
// tests.
#pragma once

#include "engine/gpu_matcher.hpp"

namespace cudamatch {

extern const GpuVersion brute_force_v0;

}  // namespace cudamatch
