// Lesson 11, v2: the warp shares words, tests survivors with one vote, verifies long patterns together.
// STARTER: complete the TODO in piece_matches (the rest is given).
//
// Besides the compares, v1 spends instructions on: loading 32 bytes per thread although it owns 16
// (the second vector is the neighbour's first: twice the load instructions), reading and repeating the
// pattern bytes for every 16 alignments, testing the pattern length before every byte, testing after
// every fourth pattern byte whether its own 16 alignments are all gone (a branch on which the warp's
// threads disagree), verifying long patterns one byte per step while the warp's other threads wait, and
// a block reduction per 4096 alignments. v2 keeps v1's packed compare and removes the rest:
//   - A lane owns 16 alignments (one uint4) and borrows the bytes after them from the next lane with
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
#include <algorithm>

#include "byte_simd.cuh"
#include "common/search_passes.cuh"
#include "common/warp_scan.cuh"
#include "versions.hpp"

namespace lesson11 {

namespace {

using cudamatch::Launch;
using cudamatch::Pass;
using cudamatch::warp_inclusive_sum;

constexpr int kWarps = 8;
constexpr int kThreads = 32 * kWarps;
constexpr int kPieces = 4;
constexpr std::size_t kPiece = 32 * kBlockBytes;     // alignments per warp and piece: 512
constexpr std::size_t kWarpSpan = kPiece * kPieces;  // alignments per warp and tile: 2048
constexpr std::size_t kTile = kWarpSpan * kWarps;    // alignments per block and tile: 16384
constexpr unsigned kFirstTest = 8;                   // the first survivor test, after this many pattern bytes
constexpr unsigned kAll = 0xffffffffu;

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
  // TODO(11-epsm, v2): v1's packed compare, with borrowed words, each shifted word made once, and votes.
  //   1. The words: w[0..3] = own.x, .y, .z, .w; w[4], w[5] = the next lane's provided.x, provided.y
  //      (__shfl_sync(kAll, value, (threadIdx.x + 1) % 32)); w[6], w[7] (provided.z, .w) only before
  //      pattern byte 8, the first that reaches them.
  //   2. unsigned differ[4] = {0, 0, 0, 0}, text_at[28]. Comparing pattern byte j, for i = 0..3:
  //        o = 4i + j; if (j < 4 || i == 3) text_at[o] = shifted(w[o / 4], w[o / 4 + 1], o % 4);
  //        differ[i] |= text_at[o] ^ p.repeated[j];
  //      (for j >= 4 and i < 3, text_at[o] was made four pattern bytes earlier, for i + 1).
  //   3. Groups of four pattern bytes, first = 0, 4, 8, 12, while first < p.packed (#pragma unroll, so
  //      that w[], text_at[] and differ[] are indexed with constants and stay in registers):
  //      - from first == kFirstTest on, before the group: if (!__any_sync(kAll, any_survivor(differ)))
  //        return 0;
  //      - at first == 8, borrow w[6] and w[7];
  //      - compare bytes first .. min(first + 4, p.packed) - 1; test the length per byte only in the
  //        last, partial group (a test per byte costs a compare and a branch for 16 alignments).
  //   4. When p.packed > 4, the same vote once more after the groups: most pieces end here.
  //   5. Return the bits as in v1: flag_bits(zero_byte_flags(differ[i])) << (4 * i), ORed over i.
  //   Every lane must reach every __shfl_sync and __any_sync: p.packed and the votes are the same in
  //   every lane, so let the loops and the returns depend on nothing else.
  (void)own, (void)provided, (void)p, (void)kFirstTest, (void)any_survivor;
  return 0;
}

// Keeps the candidate bits whose alignment holds pattern bytes kPacked .. m-1 too. Every lane of the
// warp calls it: the warp verifies one candidate at a time, 32 bytes per step.
__device__ unsigned verify(unsigned candidates, std::size_t lane_first, const std::uint8_t* __restrict__ text,
                           const std::uint8_t* __restrict__ pattern, std::size_t m) {
  const unsigned lane = threadIdx.x % 32;
  unsigned confirmed = 0;
  for (unsigned pending = __ballot_sync(kAll, candidates != 0); pending != 0;
       pending = __ballot_sync(kAll, candidates != 0)) {
    const int leader = __ffs(pending) - 1;
    const int bit = __ffs(__shfl_sync(kAll, candidates, leader)) - 1;
    const std::size_t position = __shfl_sync(kAll, lane_first, leader) + bit;
    bool equal = true;
    for (std::size_t base = kPacked; base < m; base += 32) {
      const std::size_t j = base + lane;
      if (!__all_sync(kAll, j >= m || text[position + j] == pattern[j])) {
        equal = false;
        break;
      }
    }
    if (lane == static_cast<unsigned>(leader)) {
      candidates &= candidates - 1;
      if (equal) confirmed |= 1u << bit;
    }
  }
  return confirmed;
}

// Searches this warp's part of `tile`; matches[s] gets the occurrences of piece s as bits (bit q:
// alignment q of the lane's 16). Returns the lane's number of occurrences.
__device__ unsigned search_tile(std::size_t tile, const std::uint8_t* __restrict__ text, std::size_t n,
                                const std::uint8_t* __restrict__ pattern, std::size_t m, const PackedPattern& p,
                                unsigned (&matches)[kPieces]) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t warp_first = tile * kTile + warp * kWarpSpan;
  const std::size_t last = n - m;  // the last alignment

  // All loads first. A vector starting before n lies inside DeviceText's padded allocation.
  uint4 v[kPieces];
#pragma unroll
  for (int s = 0; s < kPieces; ++s) {
    const std::size_t at = warp_first + kPiece * s + kBlockBytes * lane;
    v[s] = at < n ? *reinterpret_cast<const uint4*>(text + at) : make_uint4(0, 0, 0, 0);
  }
  const std::size_t after = warp_first + kWarpSpan;  // the 16 bytes after the warp's last piece
  const uint4 bytes_after =
      lane == 0 && after < n ? *reinterpret_cast<const uint4*>(text + after) : make_uint4(0, 0, 0, 0);

  unsigned lane_total = 0;
#pragma unroll
  for (int s = 0; s < kPieces; ++s) {
    // Lane L borrows lane L+1's bytes; lane 31 the next piece's first 16, which lane 0 holds.
    const uint4 provided = lane != 0 ? v[s] : (s + 1 < kPieces ? v[(s + 1) % kPieces] : bytes_after);
    const std::size_t lane_first = warp_first + kPiece * s + kBlockBytes * lane;
    unsigned bits = piece_matches(v[s], provided, p);
    if (lane_first > last) {
      bits = 0;
    } else if (last - lane_first < kBlockBytes - 1) {
      bits &= (2u << (last - lane_first)) - 1;  // alignments past n - m
    }
    matches[s] = m > kPacked ? verify(bits, lane_first, text, pattern, m) : bits;
    lane_total += __popc(matches[s]);
  }
  return lane_total;
}

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    epsm_v2_kernel(const std::uint8_t* __restrict__ text, std::size_t n, const std::uint8_t* __restrict__ pattern,
                   std::size_t m, unsigned long long* __restrict__ counts,
                   const unsigned long long* __restrict__ offsets, std::uint64_t* __restrict__ positions) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  PackedPattern p;
  p.packed = static_cast<unsigned>(m < kPacked ? m : kPacked);
  // DevicePattern pads the pattern with 16 zero bytes: the bytes past m are readable (and never used).
#pragma unroll
  for (unsigned j = 0; j < kPacked; ++j) p.repeated[j] = repeated(pattern[j]);

  unsigned matches[kPieces];
  unsigned lane_total = 0;
  if constexpr (kPass == Pass::count) {
    const std::size_t tiles = (n - m + kTile) / kTile;  // alignments 0 .. n - m
    for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      lane_total += search_tile(tile, text, n, pattern, m, p, matches);
    }
  } else {
    lane_total = search_tile(blockIdx.x, text, n, pattern, m, p, matches);  // one tile per block
  }

  // Block totals from warp totals; the write pass also needs each warp's first slot.
  __shared__ unsigned long long warp_totals[kWarps];
  const unsigned warp_total = __shfl_sync(kAll, warp_inclusive_sum(lane_total), 31);
  if (lane == 0) warp_totals[warp] = warp_total;
  __syncthreads();
  if constexpr (kPass == Pass::write) {
    unsigned long long slot_base = offsets[blockIdx.x];
    for (unsigned w = 0; w < warp; ++w) slot_base += warp_totals[w];
    const std::size_t warp_first = blockIdx.x * kTile + warp * kWarpSpan;
#pragma unroll
    for (int s = 0; s < kPieces; ++s) {
      const unsigned mine = __popc(matches[s]);
      const unsigned inclusive = warp_inclusive_sum(mine);
      unsigned long long slot = slot_base + inclusive - mine;
      const std::size_t lane_first = warp_first + kPiece * s + kBlockBytes * lane;
      for (unsigned bits = matches[s]; bits != 0; bits &= bits - 1) positions[slot++] = lane_first + __ffs(bits) - 1;
      slot_base += __shfl_sync(kAll, inclusive, 31);
    }
  } else if (threadIdx.x == 0) {
    unsigned long long block_total = 0;
    for (int w = 0; w < kWarps; ++w) block_total += warp_totals[w];
    if constexpr (kPass == Pass::count) {
      if (block_total > 0) atomicAdd(counts, block_total);  // one global atomic per block
    } else {
      counts[blockIdx.x] = block_total;
    }
  }
}

unsigned tiles(const DeviceText& text, std::size_t m) {
  return static_cast<unsigned>((text.size() - m + kTile) / kTile);
}

}  // namespace

void v2_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  static const unsigned resident = cudamatch::resident_blocks(epsm_v2_kernel<Pass::count>, kThreads, 0);
  const unsigned blocks = std::min(tiles(text, pattern.size()), resident);
  cudamatch::enqueue_count_pass(epsm_v2_kernel<Pass::count>, {blocks, kThreads, 0}, text, pattern, count, stream);
}

std::uint64_t v2_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream) {
  const Launch launch{tiles(text, pattern.size()), kThreads, 0};
  return cudamatch::positions_in_passes(epsm_v2_kernel<Pass::count_per_block>, epsm_v2_kernel<Pass::write>, launch,
                                        text, pattern, positions, stream);
}

}  // namespace lesson11
