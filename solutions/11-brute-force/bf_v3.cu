// Lesson 11, v3: a four-byte filter on whole words, verification by the whole warp.
// SOLUTION.
//
// v2's profile on DNA: one position in 16 passes a two-byte filter, and verifying it byte by byte
// leaves 6 of 32 threads active. v3 filters on the pattern's first FOUR bytes (one DNA position in
// about 256 passes), four positions per 32-bit word and without a branch: XOR each text word, and
// the same word shifted by 1, 2 and 3 bytes (__funnelshift_r of two aligned words), with the pattern
// byte of that offset repeated four times, OR the four results: a byte is zero exactly where four
// consecutive text bytes equal the pattern's first four, and a three-instruction zero-byte test
// turns the zero bytes into flags. About 2.5 instructions per position. Words that hold a candidate
// (one in 64 on DNA) get the same test for pattern bytes 4..7, from the registers the lane already
// holds, so only positions that match eight bytes remain. Those are verified by the whole warp: the
// warp takes them one at a time and its 32 lanes compare 32 pattern bytes per step (coalesced loads,
// one __all_sync per step), so a long pattern costs m/32 steps instead of m, and no lane idles while
// a neighbour verifies.
//
// Layout (engine/warp_tiles.cuh): a lane owns 16 consecutive positions (one uint4 of text); a warp owns kSteps pieces
// of 512 consecutive positions, all loaded before any is examined (four 16-byte loads in flight per thread); the two
// words after a lane's 16 bytes are its neighbour's first two (__shfl_sync). A block owns a tile of consecutive warps'
// ranges, so (step, lane, position) order is text order and the output is ordered with a warp scan per step and a block
// scan over the warps. In count mode the blocks loop over the tiles (grid-stride, lesson 05): as many blocks as fit on
// the GPU at once, one barrier and one atomic per block at the very end.
#include "brute_force_gpu.hpp"
#include "engine/warp_tiles.cuh"

namespace cudamatch::lesson11 {

namespace {

constexpr int kWarps = 8;
constexpr int kThreads = 32 * kWarps;
constexpr int kSteps = 4;
constexpr std::size_t kTile = 512 * kSteps * kWarps;  // positions per block and tile

// The pattern's first min(m, 8) bytes, each repeated in the four bytes of a word.
struct Prefix {
  unsigned repeated[8];
  unsigned used;  // min(m, 8)
};

// 0x80 in byte j when the four bytes starting at byte j of `lo` (continuing into `hi`) equal
// repeated[0..used) (only the first `used` of them count; used <= 4), zero elsewhere.
__device__ unsigned word_flags(unsigned lo, unsigned hi, const unsigned* repeated, unsigned used) {
  // HOLE(11-brute-force, v3): the filter of four positions at once, without a branch.
  // Byte j of `differ` is zero when bytes j, j+1, ... match: XOR with the pattern byte of each
  // offset t, the text shifted by t bytes (a funnel shift of two words), ORed together.
  unsigned differ = lo ^ repeated[0];
#pragma unroll
  for (unsigned t = 1; t < 4; ++t) {
    if (t < used) differ |= __funnelshift_r(lo, hi, 8 * t) ^ repeated[t];
  }
  // 0x80 in each zero byte of `differ`, nothing elsewhere (no carry crosses a byte).
  return ~(((differ & 0x7f7f7f7fu) + 0x7f7f7f7fu) | differ) & 0x80808080u;
  // END HOLE
}

// A lane's 16 positions hold candidates where the bytes starting there equal the prefix. w[0..3] are
// the lane's words, w[4..5] the two after them. Bit 8j + k of the result stands for position 4k + j:
// word k's flags land shifted by k, one shift per word instead of gathering the bits in order.
__device__ unsigned prefix_candidates(const unsigned (&w)[6], const Prefix& prefix) {
  const unsigned first = prefix.used < 4 ? prefix.used : 4;
  unsigned candidates = 0;
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    unsigned flags = word_flags(w[k], w[k + 1], prefix.repeated, first);
    // Pattern bytes 4..7 sit four bytes further on, in the next word: test them only where a
    // candidate remains (rarely: the branch costs less than testing every word).
    if (flags != 0 && prefix.used > 4) flags &= word_flags(w[k + 1], w[k + 2], prefix.repeated + 4, prefix.used - 4);
    candidates |= flags >> (7 - k);
  }
  return candidates;
}

__device__ int position_of_bit(int bit) { return 4 * (bit & 7) + (bit >> 3); }

// Keeps the candidate bits whose position holds the whole pattern (bytes 8..m-1 checked). Every lane
// of the warp calls it: the warp verifies one candidate at a time, 32 bytes per step.
__device__ unsigned verify(unsigned candidates, std::size_t lane_first, const std::uint8_t* __restrict__ text,
                           const std::uint8_t* __restrict__ pattern, std::size_t m) {
  // HOLE(11-brute-force, v3): warp-cooperative verification.
  const unsigned lane = threadIdx.x % 32;
  unsigned confirmed = 0;
  for (unsigned pending = __ballot_sync(kAllLanes, candidates != 0); pending != 0;
       pending = __ballot_sync(kAllLanes, candidates != 0)) {
    const int leader = __ffs(pending) - 1;
    const int bit = __ffs(__shfl_sync(kAllLanes, candidates, leader)) - 1;
    const std::size_t position = __shfl_sync(kAllLanes, lane_first, leader) + position_of_bit(bit);
    bool equal = true;
    for (std::size_t base = 8; base < m; base += 32) {
      const std::size_t j = base + lane;
      if (!__all_sync(kAllLanes, j >= m || text[position + j] == pattern[j])) {
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
  // END HOLE
}

// The occurrences among the lane's 16 positions from lane_first, as bits (bit 8j + k: position 4k + j).
// `own` holds the lane's 16 bytes, `lent` the next lane's (WarpPieces). Every lane of the warp calls it.
__device__ unsigned piece_matches(const uint4& own, const uint4& lent, std::size_t lane_first,
                                  const std::uint8_t* __restrict__ text, std::size_t n,
                                  const std::uint8_t* __restrict__ pattern, std::size_t m, const Prefix& prefix) {
  // The two words after the lane's 16 bytes: the next lane's first two.
  const unsigned next_lane = (threadIdx.x + 1) % 32;
  const unsigned w[6] = {
      own.x, own.y, own.z, own.w, __shfl_sync(kAllLanes, lent.x, next_lane), __shfl_sync(kAllLanes, lent.y, next_lane)};
  const std::size_t last = n - m;  // the last position that can hold an occurrence
  unsigned candidates = prefix_candidates(w, prefix);
  if (lane_first > last) {
    candidates = 0;
  } else if (last - lane_first < 15) {  // the text's last lane: drop positions past n - m
    for (int bit = 0; bit < 32; ++bit) {
      if (static_cast<std::size_t>(position_of_bit(bit)) > last - lane_first) candidates &= ~(1u << bit);
    }
  }
  return m > 8 ? verify(candidates, lane_first, text, pattern, m) : candidates;
}

// The positions of `bits` (piece_matches), written from `out` on in position order: word k, then byte j.
__device__ void write_matches(unsigned bits, std::size_t lane_first, std::uint64_t* out) {
  for (int k = 0; k < 4; ++k) {
    for (unsigned b = (bits >> k) & 0x01010101u; b != 0; b &= b - 1) *out++ = lane_first + 4 * k + (__ffs(b) - 1) / 8;
  }
}

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    bf_v3_kernel(const std::uint8_t* __restrict__ text, std::size_t n, const std::uint8_t* __restrict__ pattern,
                 std::size_t m, unsigned long long* __restrict__ counts, const unsigned long long* __restrict__ offsets,
                 std::uint64_t* __restrict__ positions) {
  Prefix prefix{{0, 0, 0, 0, 0, 0, 0, 0}, m < 8 ? static_cast<unsigned>(m) : 8u};
  for (unsigned t = 0; t < prefix.used; ++t) prefix.repeated[t] = pattern[t] * 0x01010101u;
  warp_tile_pass<kPass, kWarps, kSteps>(
      text, n, m, counts, offsets, positions,
      [&](const uint4& own, const uint4& lent, std::size_t lane_first) {
        return piece_matches(own, lent, lane_first, text, n, pattern, m, prefix);
      },
      [](unsigned bits, std::size_t lane_first, std::uint64_t* out) { write_matches(bits, lane_first, out); });
}

// For the tests (v3_word_flags): the filter on its own.
__global__ void word_flags_kernel(const unsigned* __restrict__ lo, const unsigned* __restrict__ hi, std::size_t n,
                                  Prefix prefix, unsigned* __restrict__ flags) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) flags[i] = word_flags(lo[i], hi[i], prefix.repeated, prefix.used);
}

using Entry = WarpTileVersion<bf_v3_kernel<Pass::count>, bf_v3_kernel<Pass::count_per_block>, bf_v3_kernel<Pass::write>,
                              kThreads, kTile>;

}  // namespace

const GpuVersion v3{"v3", "four-byte word filter, warp-cooperative verification", Entry::count, Entry::positions};

void v3_word_flags(const unsigned* lo, const unsigned* hi, std::size_t n, const std::uint8_t* first, unsigned used,
                   unsigned* flags, cudaStream_t stream) {
  if (n == 0) return;
  Prefix prefix{{0, 0, 0, 0, 0, 0, 0, 0}, used};
  for (unsigned t = 0; t < used; ++t) prefix.repeated[t] = first[t] * 0x01010101u;
  const unsigned threads = 256;
  const auto blocks = static_cast<unsigned>((n + threads - 1) / threads);
  word_flags_kernel<<<blocks, threads, 0, stream>>>(lo, hi, n, prefix, flags);
  CUDA_CHECK_LAUNCH();
}

}  // namespace cudamatch::lesson11
