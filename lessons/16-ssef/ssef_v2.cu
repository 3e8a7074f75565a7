// Lesson 16, v2: the bucket bitmap in shared memory, the block compared from registers, the warp
// verifying together.
// STARTER: complete the TODOs in next_candidate and warp_equals (the rest is given).
//
// v1 still pays, per examined block, a probe of offsets[] (256 KB: L2, not L1) even though 98% or more
// of the buckets it lands in are empty (16-ssef-filter); one thread per block, so for short steps (m <
// 31: blocks of 1 to 8 bytes, a few bytes apart) loads of 1 to 8 bytes and a thread per few bytes of
// text; and a verification loop in which one thread compares up to m bytes while the 31 others of its
// warp wait.
//
// v2:
//   - keeps the table's 8 KB bitmap (a bit per bucket: not empty) in shared memory, copied by each block
//     once: a probe is one shared load, and only the rare hits read offsets[] and entries[];
//   - reads the text as 16-byte vectors, the examined ones only: for step >= 16 the vector at the start
//     of every (step / 16)-th, one 32-byte sector in step / 16 (at m = 256, 1 in 15: 13% of the text);
//     for step < 16 every vector, holding 16 / step examined blocks. A lane owns kPieces vectors, the
//     lanes of a warp consecutive ones (coalesced when step <= 16), and loads all of them before it
//     examines any (64 bytes in flight per thread);
//   - checks a proposed alignment first against the block itself, which the lane holds in registers:
//     the block's words against the pattern's words at r (a funnel shift of two aligned words). A
//     fingerprint keeps one bit of each byte (B = 16) or two (B = 8); the whole block leaves almost only
//     true occurrences (the "same block" column of 16-ssef-filter);
//   - verifies what is left by the whole warp for long patterns (B = 16, m >= 31): the warp takes the
//     lanes' alignments one at a time and its 32 lanes compare 32 bytes per step, one __all_sync per
//     step. Short patterns (m <= 30) are verified by their lane alone, at most 30 bytes;
//   - in count mode loops over the tiles with as many blocks as fit at once (grid-stride, lesson 05):
//     one bitmap copy and one atomic per block. Positions mode keeps one tile per block and writes in
//     order: per-lane counts per piece, a warp scan per piece and a block scan over the warps, then the
//     tile is searched again and each lane writes its occurrences from its first slot on.
#include "engine/warp_tiles.cuh"
#include "short_patterns.hpp"
#include "ssef_gpu.hpp"
#include "ssef_table.hpp"

namespace cudamatch::lesson16 {

namespace {

constexpr int kWarps = 8;
constexpr int kThreads = 32 * kWarps;
constexpr int kPieces = 4;  // vectors per lane and tile
constexpr std::size_t kWarpVectors = 32 * kPieces;
constexpr std::size_t kTileVectors = kWarpVectors * kWarps;  // examined vectors per block and tile

// Where the examined blocks lie, in 16-byte vectors of text.
struct Layout {
  std::size_t vector_stride;   // bytes from one examined vector to the next: max(step, 16)
  unsigned blocks_per_vector;  // step < 16 (a divisor of 16): 16 / step; else 1, at the vector's start
  std::size_t last;            // the last alignment, n - m
  std::size_t last_block;      // the last examined block
  std::size_t vectors;         // examined vectors
};

__host__ __device__ Layout layout(const Plan& plan, std::size_t n, std::size_t m) {
  Layout l{};
  l.vector_stride = plan.step < 16 ? 16 : plan.step;
  l.blocks_per_vector = plan.step < 16 ? 16 / plan.step : 1;
  l.last = n - m;
  l.last_block = last_block(plan, n, m);
  l.vectors = l.last_block / l.vector_stride + 1;
  return l;
}

// One lane's walk through the alignments its vector proposes.
struct Cursor {
  uint4 v;              // the vector's 16 bytes
  std::size_t start;    // its offset in the text
  unsigned next_block;  // the next of its blocks to fingerprint
  unsigned blocks;      // its examined blocks (0 past the text's last)
  std::size_t o;        // the block whose bucket is being read, at byte `at` of the vector
  unsigned at;
  std::uint32_t e, stop;  // the bucket's entries still to read
};

// Whether the block at byte `at` of v equals p[r, r + B): words against the pattern's words at r, each a
// funnel shift of the two aligned words that hold it (the pattern is padded by 16 zero bytes). Blocks of
// 4 bytes or more: patterns shorter than kShortPatterns go to the short path (v2 sees blocks of 8 and 16).
__device__ bool block_equals(const Plan& plan, const uint4& v, unsigned at,
                             const std::uint32_t* __restrict__ pattern_words, std::uint32_t r) {
  for (unsigned k = 0; k < plan.block / 4; ++k) {
    const unsigned byte = r + 4 * k;
    const std::uint32_t expected =
        __funnelshift_r(pattern_words[byte / 4], pattern_words[byte / 4 + 1], 8 * (byte % 4));
    if (word_at(v, at / 4 + k) != expected) return false;
  }
  return true;
}

// Advances the lane's cursor to its next alignment whose block equals the pattern bytes it faces; false
// when the vector has no more. Alignments come in increasing order.
__device__ bool next_candidate(Cursor& c, const Plan& plan, const Layout& l, const std::uint32_t* s_nonempty,
                               const CsrTable& table, const std::uint32_t* __restrict__ pattern_words, std::size_t& s) {
  // TODO(16-ssef, v2): walk the lane's vector block by block, bucket by bucket.
  //   Loop:
  //   1. While the current bucket has entries (c.e < c.stop): r = table.entries[c.e++]; skip r > c.o
  //      (before the text); when c.o - r > l.last, the bucket's remaining entries (smaller r, later
  //      alignments) are past n - m too: set c.e = c.stop and leave this loop. Otherwise, when
  //      block_equals(plan, c.v, c.at, pattern_words, r), set s = c.o - r and return true.
  //   2. No block left (c.next_block == c.blocks): return false. Else take the next block:
  //      c.at = c.next_block++ * plan.step, c.o = c.start + c.at; when c.o > l.last_block, set
  //      c.next_block = c.blocks and return false (no later block of the vector is examined either).
  //   3. f = fingerprint_in_vector(plan, c.v, c.at). Probe the bitmap in shared memory: bit f % 32 of
  //      s_nonempty[f / 32]; an empty bucket: go on with the next block (most blocks stop here). Else
  //      c.e = table.offsets[f], c.stop = table.offsets[f + 1], and back to 1.
  (void)c, (void)plan, (void)l, (void)s_nonempty, (void)table, (void)pattern_words, (void)s, (void)block_equals;
  return false;
}

__device__ bool lane_equals(const std::uint8_t* __restrict__ text, std::size_t s,
                            const std::uint8_t* __restrict__ pattern, std::size_t m) {
  for (std::size_t j = 0; j < m; ++j) {
    if (text[s + j] != pattern[j]) return false;
  }
  return true;
}

// Whether text[s, s + m) equals the pattern; every lane of the warp calls it with the same s.
__device__ bool warp_equals(const std::uint8_t* __restrict__ text, std::size_t s,
                            const std::uint8_t* __restrict__ pattern, std::size_t m) {
  // TODO(16-ssef, v2): compare 32 bytes per step, one per lane.
  //   For base = 0, 32, 64, ... < m: lane L compares text[s + base + L] with pattern[base + L] (a lane
  //   past the pattern, base + L >= m, counts as equal); __all_sync(kAllLanes, equal) tells every lane whether
  //   the whole step matched: return false at the first step that did not, true after the last.
  //   Every lane must reach every __all_sync: keep the loop the same in all lanes.
  (void)text, (void)s, (void)pattern, (void)m;
  return false;
}

// Searches this warp's part of `tile`: on_match(piece, s) for each occurrence, in increasing s per lane
// and piece. Every lane of the warp calls it.
template <class OnMatch>
__device__ void search_tile(std::size_t tile, const std::uint8_t* __restrict__ text,
                            const std::uint8_t* __restrict__ pattern, std::size_t m, const Plan& plan, const Layout& l,
                            const std::uint32_t* s_nonempty, const CsrTable& table, OnMatch on_match) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t first = tile * kTileVectors + warp * kWarpVectors + lane;
  const auto* pattern_words = reinterpret_cast<const std::uint32_t*>(pattern);

  // All loads first. A vector that starts before n lies inside DeviceText's padded allocation.
  uint4 v[kPieces];
#pragma unroll
  for (int p = 0; p < kPieces; ++p) {
    const std::size_t j = first + 32 * p;
    v[p] = j < l.vectors ? *reinterpret_cast<const uint4*>(text + j * l.vector_stride) : make_uint4(0, 0, 0, 0);
  }

#pragma unroll
  for (int p = 0; p < kPieces; ++p) {
    const std::size_t j = first + 32 * p;
    Cursor c{v[p], j * l.vector_stride, 0, j < l.vectors ? l.blocks_per_vector : 0u, 0, 0, 0, 0};
    std::size_t s = 0;
    if (plan.block < 16) {  // short patterns: the lane verifies alone
      while (next_candidate(c, plan, l, s_nonempty, table, pattern_words, s)) {
        if (lane_equals(text, s, pattern, m)) on_match(p, s);
      }
    } else {  // each round, the warp verifies every lane's next alignment, in lane order
      bool pending = next_candidate(c, plan, l, s_nonempty, table, pattern_words, s);
      for (unsigned lanes = __ballot_sync(kAllLanes, pending); lanes != 0; lanes = __ballot_sync(kAllLanes, pending)) {
        for (unsigned left = lanes; left != 0; left &= left - 1) {
          const int leader = __ffs(left) - 1;
          const bool equal = warp_equals(text, __shfl_sync(kAllLanes, s, leader), pattern, m);
          if (lane == static_cast<unsigned>(leader) && equal) on_match(p, s);
        }
        if (pending) pending = next_candidate(c, plan, l, s_nonempty, table, pattern_words, s);
      }
    }
  }
}

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    ssef_v2_kernel(const std::uint8_t* __restrict__ text, std::size_t n, const std::uint8_t* __restrict__ pattern,
                   std::size_t m, unsigned long long* __restrict__ counts,
                   const unsigned long long* __restrict__ offsets, std::uint64_t* __restrict__ positions, Plan plan,
                   CsrTable table) {
  __shared__ uint4 s_bitmap[kBuckets / 128];  // 8 KB: the table's nonempty bits
  for (unsigned i = threadIdx.x; i < kBuckets / 128; i += kThreads) {
    s_bitmap[i] = reinterpret_cast<const uint4*>(table.nonempty)[i];
  }
  __syncthreads();
  const auto* s_nonempty = reinterpret_cast<const std::uint32_t*>(s_bitmap);
  const Layout l = layout(plan, n, m);

  unsigned found[kPieces] = {};
  search_tiles<kPass>((l.vectors + kTileVectors - 1) / kTileVectors, [&](std::size_t tile) {
    search_tile(tile, text, pattern, m, plan, l, s_nonempty, table, [&](int p, std::size_t) { ++found[p]; });
  });
  finish_warp_tile_pass<kPass, kWarps>(found, counts, offsets, positions, [&](std::uint64_t*(&out)[kPieces]) {
    search_tile(blockIdx.x, text, pattern, m, plan, l, s_nonempty, table, [&](int p, std::size_t s) { *out[p]++ = s; });
  });
}

unsigned tiles(const DeviceText& text, const Plan& plan, std::size_t m) {
  return static_cast<unsigned>((layout(plan, text.size(), m).vectors + kTileVectors - 1) / kTileVectors);
}

// Below v2's design range, m < kShortPatterns (lessons/11-brute-force/short_patterns.hpp): blocks of 1 to 8 bytes, a
// block examined every few bytes, where v0-v2 reach a small share of the read bandwidth (docs/results/lesson-16.md);
// the given short path compares every position directly instead.

void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  static const unsigned resident = resident_blocks(ssef_v2_kernel<Pass::count>, kThreads, 0);
  if (pattern.size() < lesson11::kShortPatterns) return lesson11::short_count(text, pattern, count, stream);
  const Plan plan = make_plan(pattern.host());
  const CsrTable table = build_table_on_gpu(pattern, plan, stream);
  const unsigned blocks = std::min(tiles(text, plan, pattern.size()), resident);
  enqueue_count_pass(ssef_v2_kernel<Pass::count>, {blocks, kThreads, 0}, text, pattern, count, stream, plan, table);
}

std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                        cudaStream_t stream) {
  if (pattern.size() < lesson11::kShortPatterns) return lesson11::short_positions(text, pattern, positions, stream);
  const Plan plan = make_plan(pattern.host());
  const CsrTable table = build_table_on_gpu(pattern, plan, stream);
  const Launch launch{tiles(text, plan, pattern.size()), kThreads, 0};
  return positions_in_passes(ssef_v2_kernel<Pass::count_per_block>, ssef_v2_kernel<Pass::write>, launch, text, pattern,
                             positions, stream, plan, table);
}

}  // namespace

const GpuVersion v2{"v2", "bucket bitmap in shared memory, block compare, warp-cooperative verification", count,
                    positions};

}  // namespace cudamatch::lesson16
