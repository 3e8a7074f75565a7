// Warp-level sums for kernels that order their output by lane (lessons 11, 15, 16).
#pragma once

namespace cudamatch {

// The sum of `value` over lanes 0..this lane (Hillis-Steele with shuffles: five steps). Every lane of
// the warp must call it.
__device__ __forceinline__ unsigned warp_inclusive_sum(unsigned value) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned d = 1; d < 32; d *= 2) {
    const unsigned below = __shfl_up_sync(0xffffffffu, value, d);
    if (lane >= d) value += below;
  }
  return value;
}

}  // namespace cudamatch
