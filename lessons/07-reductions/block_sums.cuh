// Lesson 07 - the warp and block sums that every matcher from lesson 11 on is built on: the block's
// total of one value per thread (a count, one global atomic per block), and each thread's exclusive
// prefix (where its output goes, in thread order). engine/block_pass.cuh and engine/warp_tiles.cuh
// call these functions, so lessons 11-16 run on your code.
// STARTER: the three functions are right but naive; steps 1-3 make them work-efficient.
//
// The rules of all three: every thread of the block (of the warp, for warp_inclusive_sum) calls them,
// with blockDim.x == kThreads, a multiple of 32 up to 1024, and one-dimensional blocks; the sums wrap
// modulo 2^32 like any unsigned arithmetic; `temp` is __shared__ and may be used again as soon as a
// call returns (the block functions end with a barrier).
#pragma once

namespace cudamatch {

constexpr unsigned kFullWarp = 0xffffffffu;

// TODO(07-reductions, step 1): the sum of `value` over lanes 0 .. this lane, with warp shuffles.
//   Given: every lane reads all 32 values (32 shuffles) and adds those of the lanes up to its own.
//   Make it log2(32) = 5 steps: for d = 1, 2, 4, 8, 16, take __shfl_up_sync(kFullWarp, value, d) and
//   add it when lane >= d (Kogge-Stone). Add warp_reduce_sum(value), the warp's total in every lane
//   (five __shfl_xor_sync steps, d = 16 .. 1), for step 2.
__device__ __forceinline__ unsigned warp_inclusive_sum(unsigned value) {
  const unsigned lane = threadIdx.x % 32;
  unsigned sum = 0;
  for (unsigned source = 0; source < 32; ++source) {
    const unsigned other = __shfl_sync(kFullWarp, value, source);
    if (source <= lane) sum += other;
  }
  return sum;
}

// TODO(07-reductions, step 2): the block's total, in every thread: warp sums, then one warp sums the warp totals.
//   Given: one word per thread in shared memory, and thread 0 adds them up alone (kThreads serial
//   steps). Shrink BlockSumsTemp to two arrays of one word per warp, `warps` (each warp's total) and
//   `prefixes` (step 3's, the sum of the warps before each warp), and the total; each warp reduces its
//   values with warp_reduce_sum, lane 0 stores the warp's total in warps[], __syncthreads(), warp 0
//   reduces the kThreads / 32 warp totals and stores the block's total, __syncthreads(), every thread
//   reads it, and a last __syncthreads() lets the caller use temp again.
template <int kThreads>
struct BlockSumsTemp {
  static_assert(kThreads % 32 == 0 && kThreads >= 32 && kThreads <= 1024, "a block of 1 to 32 whole warps");
  unsigned values[kThreads];  // 1 KB for 256 threads: lessons 13 and 14 leave no room for more
};

template <int kThreads>
__device__ __forceinline__ unsigned block_reduce_sum(unsigned value, BlockSumsTemp<kThreads>& temp) {
  temp.values[threadIdx.x] = value;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned total = 0;
    for (int i = 0; i < kThreads; ++i) total += temp.values[i];
    temp.values[0] = total;
  }
  __syncthreads();
  const unsigned total = temp.values[0];
  __syncthreads();  // temp may be used again
  return total;
}

// TODO(07-reductions, step 3): each thread's exclusive prefix and the block's total, work-efficient; the warps'
// prefixes in prefixes[], not over warps[].
//   Given: thread 0 scans the kThreads values alone. Make it: inclusive = warp_inclusive_sum(value);
//   lane 31 stores its warp's total in warps[]; __syncthreads(); warp 0 scans the warp totals with
//   warp_inclusive_sum and stores, per warp, the sum of the warps before it in prefixes[] (and the
//   block's total); __syncthreads(); the prefix is prefixes[warp] + inclusive - value. End with
//   __syncthreads(). Not back over warps[]: the other lanes of warp 0 may not have read their warp
//   totals yet, a race (compute-sanitizer racecheck flags it in blocks of one warp).
template <int kThreads>
__device__ __forceinline__ unsigned block_exclusive_sum(unsigned value, BlockSumsTemp<kThreads>& temp,
                                                        unsigned& block_total) {
  temp.values[threadIdx.x] = value;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned running = 0;
    for (int i = 0; i < kThreads; ++i) {
      const unsigned own = temp.values[i];
      temp.values[i] = running;
      running += own;
    }
  }
  __syncthreads();
  const unsigned prefix = temp.values[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == kThreads - 1) temp.values[0] = prefix + value;  // the block's total
  __syncthreads();
  block_total = temp.values[0];
  __syncthreads();  // temp may be used again
  return prefix;
}

}  // namespace cudamatch
