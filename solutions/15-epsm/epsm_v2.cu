// Lesson 15, v2: the warp shares words, tests survivors with one vote, verifies long patterns together.
// SOLUTION.
//
// Besides the compares, v1 spends instructions on: loading 32 bytes per thread although it owns 16
// (the second vector is the neighbour's first: twice the load instructions), reading and repeating the
// pattern bytes for every 16 alignments, testing the pattern length before every byte, testing after
// every fourth pattern byte whether its own 16 alignments are all gone (a branch on which the warp's
// threads disagree), verifying long patterns one byte per step while the warp's other threads wait, and
// a block reduction per 4096 alignments. v2 keeps v1's packed compare and removes the rest:
//   - A lane owns 16 alignments (one uint4; engine/warp_tiles.cuh) and borrows the bytes after them from the next lane
//   with
//     __shfl_sync: lane 31 from lane 0, which holds the next piece's first bytes. A warp owns kPieces
//     pieces of 512 alignments and loads all of them before it compares (four 16-byte loads in flight
//     per lane); w[6] and w[7] are borrowed only when pattern bytes 8.. are compared.
//   - The pattern bytes are repeated into registers once per thread; the length is tested once per
//     group of four pattern bytes; each shifted text word is made once (text_at[]).
//   - The test for survivors is a warp vote (__any_sync): the warp continues or stops as one, nothing
//     diverges. It comes first after 8 pattern bytes, not 4: on DNA one alignment in 256 survives four
//     bytes, so a piece of 512 still holds one 87% of the time and the test would rarely stop anything;
//     after 8 bytes (one in 65,536) it almost always does. Exact flags are computed only for pieces with
//     survivors.
//   - Patterns longer than 16 bytes: the warp verifies its candidates one at a time, its 32 lanes
//     comparing 32 pattern bytes per step (one __all_sync per step).
//   - Count mode: the blocks loop over the tiles (grid-stride, lesson 05), as many as fit on the GPU at
//     once, one barrier and one atomic per block at the very end. Positions mode: one tile per block,
//     ordered by a warp scan per piece and a block scan over the warps.
#include "byte_simd.cuh"
#include "engine/warp_tiles.cuh"
#include "epsm_gpu.hpp"

namespace cudamatch::lesson15 {

namespace {

constexpr int kWarps = 8;
constexpr int kThreads = 32 * kWarps;
constexpr int kPieces = 4;
constexpr std::size_t kTile = 32 * kBlockBytes * kPieces * kWarps;  // alignments per block and tile: 16384
constexpr unsigned kFirstTest = 8;  // the first survivor test, after this many pattern bytes

// The pattern's first min(m, 16) bytes, each repeated in the four bytes of a word.
struct PackedPattern {
  unsigned repeated[kPacked];
  unsigned packed;  // min(m, 16)
};

// Whether some alignment of the four words still matches every pattern byte compared.
__device__ bool any_survivor(const unsigned (&differ)[4]) {
  return (any_zero_byte(differ[0]) | any_zero_byte(differ[1]) | any_zero_byte(differ[2]) | any_zero_byte(differ[3])) !=
         0;
}

// Bit q set when the lane's alignment q matches the pattern's first p.packed bytes. `own` holds the
// lane's 16 text bytes; `provided` is what this lane lends the previous one (lane L reads lane L+1's).
// Every lane of the warp calls it: it borrows words with shuffles and tests survivors with votes.
__device__ unsigned piece_matches(const uint4& own, const uint4& provided, const PackedPattern& p) {
  // HOLE(15-epsm, v2): v1's packed compare, with borrowed words, each shifted word made once, and votes.
  const unsigned next_lane = (threadIdx.x + 1) % 32;
  // w[0..3]: the lane's words; w[4..7]: the next 16 bytes, which the shifts by up to 15 bring in.
  unsigned w[8] = {own.x,
                   own.y,
                   own.z,
                   own.w,
                   __shfl_sync(kAllLanes, provided.x, next_lane),
                   __shfl_sync(kAllLanes, provided.y, next_lane),
                   0,
                   0};
  // text_at[o]: the four text bytes o positions after the lane's first (o = 0..27). Alignment 4i + b
  // meets pattern byte j in byte b of text_at[4i + j], so text_at[o] serves pattern bytes o, o - 4,
  // o - 8 and o - 12: each is made once (a byte shift, or a plain word when o % 4 == 0), the first
  // time a pattern byte needs it.
  unsigned text_at[28];
  unsigned differ[4] = {0, 0, 0, 0};  // byte b of differ[i]: alignment 4i + b, zero while it matches
  const auto compare_byte = [&](unsigned j) {
#pragma unroll
    for (unsigned i = 0; i < 4; ++i) {
      const unsigned o = 4 * i + j;
      if (j < 4 || i == 3) text_at[o] = shifted(w[o / 4], w[o / 4 + 1], o % 4);
      differ[i] |= text_at[o] ^ p.repeated[j];
    }
  };
  // Groups of four pattern bytes: one test of the length per group, not per byte.
#pragma unroll
  for (unsigned first = 0; first < kPacked; first += 4) {
    if (first >= p.packed) break;
    if (first >= kFirstTest && !__any_sync(kAllLanes, any_survivor(differ))) return 0;
    if (first == 8) {  // bytes 8.. reach into w[6] and w[7]
      w[6] = __shfl_sync(kAllLanes, provided.z, next_lane);
      w[7] = __shfl_sync(kAllLanes, provided.w, next_lane);
    }
    if (first + 4 <= p.packed) {
#pragma unroll
      for (unsigned j = first; j < first + 4; ++j) compare_byte(j);
    } else {  // the pattern ends inside this group
#pragma unroll
      for (unsigned j = first; j < first + 4; ++j) {
        if (j == p.packed) break;
        compare_byte(j);
      }
    }
  }
  // Up to 4 bytes, survivors are common (DNA: one alignment in 256 at 4 bytes); beyond, test first.
  if (p.packed > 4 && !__any_sync(kAllLanes, any_survivor(differ))) return 0;
  unsigned bits = 0;
#pragma unroll
  for (unsigned i = 0; i < 4; ++i) bits |= flag_bits(zero_byte_flags(differ[i])) << (4 * i);
  return bits;
  // END HOLE
}

// The occurrences among the lane's 16 alignments from lane_first, as bits (bit q: alignment q).
// Every lane of the warp calls it.
__device__ unsigned lane_occurrences(const uint4& own, const uint4& lent, std::size_t lane_first,
                                     const std::uint8_t* __restrict__ text, std::size_t n,
                                     const std::uint8_t* __restrict__ pattern, std::size_t m, const PackedPattern& p) {
  const std::size_t last = n - m;  // the last alignment
  unsigned bits = piece_matches(own, lent, p);
  if (lane_first > last) {
    bits = 0;
  } else if (last - lane_first < kBlockBytes - 1) {
    bits &= (2u << (last - lane_first)) - 1;  // alignments past n - m
  }
  // Long patterns: the bits left are verified on bytes kPacked .. m-1 by the whole warp.
  if (m <= kPacked) return bits;
  return warp_verify(bits, lane_first, text, pattern, kPacked, m, [](int bit) { return bit; });
}

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    epsm_v2_kernel(const std::uint8_t* __restrict__ text, std::size_t n, const std::uint8_t* __restrict__ pattern,
                   std::size_t m, unsigned long long* __restrict__ counts,
                   const unsigned long long* __restrict__ offsets, std::uint64_t* __restrict__ positions) {
  PackedPattern p;
  p.packed = static_cast<unsigned>(m < kPacked ? m : kPacked);
  // DevicePattern pads the pattern with 16 zero bytes: the bytes past m are readable (and never used).
#pragma unroll
  for (unsigned j = 0; j < kPacked; ++j) p.repeated[j] = repeated(pattern[j]);
  warp_tile_pass<kPass, kWarps, kPieces>(
      text, n, m, counts, offsets, positions,
      [&](const uint4& own, const uint4& lent, std::size_t lane_first) {
        return lane_occurrences(own, lent, lane_first, text, n, pattern, m, p);
      },
      [](unsigned bits, std::size_t lane_first, std::uint64_t* out) {
        for (; bits != 0; bits &= bits - 1) *out++ = lane_first + __ffs(bits) - 1;
      });
}

using Entry = WarpTileVersion<epsm_v2_kernel<Pass::count>, epsm_v2_kernel<Pass::count_per_block>,
                              epsm_v2_kernel<Pass::write>, kThreads, kTile>;

}  // namespace

const GpuVersion v2{"v2", "warp-shared words and shifts, warp-uniform survivor test, grid-stride", Entry::count,
                    Entry::positions};

}  // namespace cudamatch::lesson15
