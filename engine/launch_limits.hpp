// What a launch may ask for on every GPU the course supports (sm_75 and newer), without opting in to
// more (cudaFuncSetAttribute).
#pragma once

#include <cstddef>

namespace cudamatch {

// Shared memory per block, static and dynamic together: 48 KB by default.
constexpr std::size_t kSharedBytesPerBlock = 48 * 1024;

}  // namespace cudamatch
