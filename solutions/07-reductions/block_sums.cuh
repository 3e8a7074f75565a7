// Lesson 07 - the warp and block sums that every matcher from lesson 11 on is built on: the block's
// total of one value per thread (a count, one global atomic per block), and each thread's exclusive
// prefix (where its output goes, in thread order). engine/block_pass.cuh and engine/warp_tiles.cuh
// call these functions, so lessons 11-16 run on your code.
// SOLUTION.
//
// The rules of all three: every thread of the block (of the warp, for warp_inclusive_sum) calls them,
// with blockDim.x == kThreads, a multiple of 32 up to 1024, and one-dimensional blocks; the sums wrap
// modulo 2^32 like any unsigned arithmetic; `temp` is __shared__ and may be used again as soon as a
// call returns (the block functions end with a barrier).
#pragma once

namespace cudamatch {

constexpr unsigned kFullWarp = 0xffffffffu;

// HOLE(07-reductions, step 1): the sum of `value` over lanes 0 .. this lane, with warp shuffles.
// Kogge-Stone with shuffles: after the step with distance d, each lane holds the sum of the 2d lanes
// up to itself. Five steps, no shared memory, no barrier.
__device__ __forceinline__ unsigned warp_inclusive_sum(unsigned value) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned d = 1; d < 32; d *= 2) {
    const unsigned below = __shfl_up_sync(kFullWarp, value, d);
    if (lane >= d) value += below;
  }
  return value;
}

// The sum over the whole warp, in every lane (a butterfly: five exchanges).
__device__ __forceinline__ unsigned warp_reduce_sum(unsigned value) {
#pragma unroll
  for (unsigned d = 16; d > 0; d /= 2) value += __shfl_xor_sync(kFullWarp, value, d);
  return value;
}
// END HOLE

// HOLE(07-reductions, step 2): the block's total, in every thread: warp sums, then one warp sums the warp totals.
// The block's scratch: two words per warp and the total (68 bytes for 256 threads).
template <int kThreads>
struct BlockSumsTemp {
  static_assert(kThreads % 32 == 0 && kThreads >= 32 && kThreads <= 1024, "a block of 1 to 32 whole warps");
  unsigned warps[kThreads / 32];     // each warp's total
  unsigned prefixes[kThreads / 32];  // the scan's: the sum of the warps before each warp
  unsigned total;
};

template <int kThreads>
__device__ __forceinline__ unsigned block_reduce_sum(unsigned value, BlockSumsTemp<kThreads>& temp) {
  constexpr unsigned kWarps = kThreads / 32;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned warp_total = warp_reduce_sum(value);
  if (lane == 0) temp.warps[warp] = warp_total;
  __syncthreads();
  if (warp == 0) {
    const unsigned total = warp_reduce_sum(lane < kWarps ? temp.warps[lane] : 0u);
    if (lane == 0) temp.total = total;
  }
  __syncthreads();
  const unsigned total = temp.total;
  __syncthreads();  // temp may be used again
  return total;
}
// END HOLE

// HOLE(07-reductions, step 3): each thread's exclusive prefix and the block's total, work-efficient; the warps'
// prefixes in prefixes[], not over warps[]. Each warp scans its lanes (5 shuffles), warp 0 scans the warp totals (one
// pass over kThreads / 32 values), and every thread adds its warp's prefix: three barriers, O(kThreads) additions.
template <int kThreads>
__device__ __forceinline__ unsigned block_exclusive_sum(unsigned value, BlockSumsTemp<kThreads>& temp,
                                                        unsigned& block_total) {
  constexpr unsigned kWarps = kThreads / 32;
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const unsigned inclusive = warp_inclusive_sum(value);
  if (lane == 31) temp.warps[warp] = inclusive;  // the warp's total
  __syncthreads();
  if (warp == 0) {
    const unsigned total = lane < kWarps ? temp.warps[lane] : 0u;
    const unsigned before = warp_inclusive_sum(total);  // inclusive over the warp totals
    // Not back into warps[]: the other lanes of this warp may still be reading it (racecheck).
    if (lane < kWarps) temp.prefixes[lane] = before - total;  // exclusive: the warps before `lane`
    if (lane == 31) temp.total = before;
  }
  __syncthreads();
  const unsigned prefix = temp.prefixes[warp] + inclusive - value;
  block_total = temp.total;
  __syncthreads();  // temp may be used again
  return prefix;
}
// END HOLE

}  // namespace cudamatch
