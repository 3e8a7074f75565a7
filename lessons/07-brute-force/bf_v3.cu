// Lesson 07, v3: a four-byte filter on whole words, verification by the whole warp. STARTER: complete the TODOs in
// prefix_candidates and verify (the rest is given).
//
// v2's profile on DNA: one position in 16 passes a two-byte filter, and verifying it byte by byte
// leaves 6 of 32 threads active. v3 filters on the pattern's first FOUR bytes (one DNA position in
// about 256 passes) and makes the filter branch-free: the 32-bit window at each position is a funnel
// shift of two aligned words, compared with the pattern's first four bytes as one integer. The rare
// candidates are verified by the whole warp together: the warp takes them one at a time and its 32
// lanes compare 32 pattern bytes per step (coalesced loads, one __all_sync per step), so a long
// pattern costs m/32 steps instead of m, and no lane idles while a neighbour verifies.
//
// Layout: a lane owns 16 consecutive positions (one uint4 of text); a warp owns kSteps pieces of 512
// consecutive positions, all loaded before any is examined (four 16-byte loads in flight per thread);
// the word after a lane's 16 bytes is its neighbour's first word (__shfl_sync). A block owns
// consecutive warps' ranges, so (step, lane, bit) order is position order and the output is ordered
// with a warp scan per step and a block scan over the warps.
#include "common/search_passes.cuh"
#include "versions.hpp"

namespace lesson07 {

namespace {

using cudamatch::Launch;
using cudamatch::Pass;

constexpr int kWarps = 8;
constexpr int kThreads = 32 * kWarps;
constexpr int kSteps = 4;
constexpr std::size_t kWarpSpan = 512 * kSteps;              // positions per warp
constexpr std::size_t kTile = kWarpSpan * kWarps;            // positions per block
constexpr unsigned kAll = 0xffffffffu;

// Bit b set when the four bytes at this lane's position b equal `prefix` on the bits of `mask`.
__device__ unsigned prefix_candidates(const uint4& v, unsigned next, unsigned prefix, unsigned mask) {
  // TODO(07-brute-force, v3): the four-byte filter, branch-free.
  //   The lane's 16 text bytes are the words w[0..3] = v.x, v.y, v.z, v.w (little-endian: byte 0 of
  //   w[0] is the lane's first position) and w[4] = next. The four bytes starting at position
  //   4k + t (k, t = 0..3) are __funnelshift_r(w[k], w[k + 1], 8 * t). Set bit 4k + t of the result
  //   when (window & mask) == prefix. Unroll both loops (#pragma unroll): w[] must stay in registers.
  (void)v, (void)next, (void)prefix, (void)mask;
  return 0;
}

// Keeps the candidate bits whose position holds the whole pattern (bytes 4..m-1 checked). Every lane
// of the warp calls it: the warp verifies one candidate at a time, 32 bytes per step.
__device__ unsigned verify(unsigned candidates, std::size_t lane_first, const std::uint8_t* __restrict__ text,
                           const std::uint8_t* __restrict__ pattern, std::size_t m) {
  // TODO(07-brute-force, v3): warp-cooperative verification.
  //   Loop while any lane has candidates (pending = __ballot_sync(kAll, candidates != 0)):
  //   1. leader = the lowest lane with candidates; every lane learns the leader's lowest candidate
  //      bit and its position (lane_first of the leader + bit) with __shfl_sync.
  //   2. All 32 lanes compare pattern bytes j = 4 + lane, 36 + lane, ... (j < m) with
  //      text[position + j]; stop at the first step where __all_sync says some byte differs.
  //   3. The leader clears that candidate bit and, when every byte matched, sets it in the result.
  //   Every lane must reach every __shfl_sync/__all_sync/__ballot_sync: keep the loops warp-uniform.
  (void)candidates, (void)lane_first, (void)text, (void)pattern, (void)m;
  return 0;
}

__device__ unsigned warp_inclusive_sum(unsigned value) {
  const unsigned lane = threadIdx.x % 32;
#pragma unroll
  for (unsigned d = 1; d < 32; d *= 2) {
    const unsigned below = __shfl_up_sync(kAll, value, d);
    if (lane >= d) value += below;
  }
  return value;
}

template <Pass kPass>
__global__ void __launch_bounds__(kThreads) bf_v3_kernel(const std::uint8_t* __restrict__ text, std::size_t n,
                                                         const std::uint8_t* __restrict__ pattern, std::size_t m,
                                                         unsigned long long* __restrict__ counts,
                                                         const unsigned long long* __restrict__ offsets,
                                                         std::uint64_t* __restrict__ positions) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t warp_first = static_cast<std::size_t>(blockIdx.x) * kTile + warp * kWarpSpan;
  const std::size_t last = n - m;  // the last position that can hold an occurrence

  // The pattern's first min(m, 4) bytes as one little-endian word, and which of its bytes count.
  unsigned prefix = 0, mask = 0;
  for (unsigned j = 0; j < 4 && j < m; ++j) {
    prefix |= static_cast<unsigned>(pattern[j]) << (8 * j);
    mask |= 0xffu << (8 * j);
  }

  // All loads first. A vector starting before n lies inside DeviceText's padded allocation.
  uint4 v[kSteps];
#pragma unroll
  for (int s = 0; s < kSteps; ++s) {
    const std::size_t at = warp_first + 512 * s + 16 * lane;
    v[s] = at < n ? *reinterpret_cast<const uint4*>(text + at) : make_uint4(0, 0, 0, 0);
  }
  const std::size_t after = warp_first + kWarpSpan;  // the word after the warp's last piece
  const unsigned word_after = lane == 0 && after < n ? *reinterpret_cast<const unsigned*>(text + after) : 0u;

  unsigned matches[kSteps];
  unsigned lane_total = 0;
#pragma unroll
  for (int s = 0; s < kSteps; ++s) {
    // Lane L needs lane L+1's first word; lane 31 needs the next piece's first word, which lane 0 holds.
    const unsigned provided = lane != 0 ? v[s].x : (s + 1 < kSteps ? v[(s + 1) % kSteps].x : word_after);
    const unsigned next = __shfl_sync(kAll, provided, (lane + 1) % 32);
    const std::size_t lane_first = warp_first + 512 * s + 16 * lane;
    unsigned candidates = prefix_candidates(v[s], next, prefix, mask);
    if (lane_first > last) {
      candidates = 0;
    } else if (last - lane_first < 15) {
      candidates &= (1u << (last - lane_first + 1)) - 1;  // positions past n - m
    }
    matches[s] = m > 4 ? verify(candidates, lane_first, text, pattern, m) : candidates;
    lane_total += __popc(matches[s]);
  }

  // Block totals from warp totals; the write pass also needs each warp's first slot.
  __shared__ unsigned warp_totals[kWarps];
  const unsigned warp_total = __shfl_sync(kAll, warp_inclusive_sum(lane_total), 31);
  if (lane == 0) warp_totals[warp] = warp_total;
  __syncthreads();
  if constexpr (kPass == Pass::write) {
    unsigned long long slot_base = offsets[blockIdx.x];
    for (unsigned w = 0; w < warp; ++w) slot_base += warp_totals[w];
#pragma unroll
    for (int s = 0; s < kSteps; ++s) {
      const unsigned mine = __popc(matches[s]);
      const unsigned inclusive = warp_inclusive_sum(mine);
      unsigned long long slot = slot_base + inclusive - mine;
      const std::size_t lane_first = warp_first + 512 * s + 16 * lane;
      for (unsigned bits = matches[s]; bits != 0; bits &= bits - 1) positions[slot++] = lane_first + __ffs(bits) - 1;
      slot_base += __shfl_sync(kAll, inclusive, 31);
    }
  } else if (threadIdx.x == 0) {
    unsigned long long block_total = 0;
    for (int w = 0; w < kWarps; ++w) block_total += warp_totals[w];
    if constexpr (kPass == Pass::count) {
      atomicAdd(counts, block_total);  // one global atomic per block
    } else {
      counts[blockIdx.x] = block_total;
    }
  }
}

Launch plan(const DeviceText& text, std::size_t m) {
  const std::size_t candidates = text.size() - m + 1;
  return {static_cast<unsigned>((candidates + kTile - 1) / kTile), kThreads, 0};
}

}  // namespace

void v3_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  cudamatch::enqueue_count_pass(bf_v3_kernel<Pass::count>, plan(text, pattern.size()), text, pattern, count, stream);
}

std::uint64_t v3_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream) {
  return cudamatch::positions_in_passes(bf_v3_kernel<Pass::count_per_block>, bf_v3_kernel<Pass::write>,
                                        plan(text, pattern.size()), text, pattern, positions, stream);
}

}  // namespace lesson07
