// Lesson 07, v3: a four-byte filter on whole words, verification by the whole warp. SOLUTION.
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
// Layout: a lane owns 16 consecutive positions (one uint4 of text); a warp owns kSteps pieces of 512
// consecutive positions, all loaded before any is examined (four 16-byte loads in flight per thread);
// the two words after a lane's 16 bytes are its neighbour's first two (__shfl_sync). A block owns a tile of
// consecutive warps' ranges, so (step, lane, position) order is text order and the output is ordered
// with a warp scan per step and a block scan over the warps. In count mode the blocks loop over the
// tiles (grid-stride, lesson 05): as many blocks as fit on the GPU at once, one barrier and one
// atomic per block at the very end.
#include "common/search_passes.cuh"
#include "common/warp_scan.cuh"
#include "versions.hpp"

namespace lesson07 {

namespace {

using cudamatch::Launch;
using cudamatch::Pass;
using cudamatch::warp_inclusive_sum;

constexpr int kWarps = 8;
constexpr int kThreads = 32 * kWarps;
constexpr int kSteps = 4;
constexpr std::size_t kWarpSpan = 512 * kSteps;    // positions per warp
constexpr std::size_t kTile = kWarpSpan * kWarps;  // positions per block and tile
constexpr unsigned kAll = 0xffffffffu;

// The pattern's first min(m, 8) bytes, each repeated in the four bytes of a word.
struct Prefix {
  unsigned repeated[8];
  unsigned used;  // min(m, 8)
};

// 0x80 in byte j when the four bytes starting at byte j of `lo` (continuing into `hi`) equal
// repeated[0..used) (only the first `used` of them count; used <= 4), zero elsewhere.
__device__ unsigned word_flags(unsigned lo, unsigned hi, const unsigned* repeated, unsigned used) {
  // Byte j of `differ` is zero when bytes j, j+1, ... match: XOR with the pattern byte of each
  // offset t, the text shifted by t bytes (a funnel shift of two words), ORed together.
  unsigned differ = lo ^ repeated[0];
#pragma unroll
  for (unsigned t = 1; t < 4; ++t) {
    if (t < used) differ |= __funnelshift_r(lo, hi, 8 * t) ^ repeated[t];
  }
  // 0x80 in each zero byte of `differ`, nothing elsewhere (no carry crosses a byte).
  return ~(((differ & 0x7f7f7f7fu) + 0x7f7f7f7fu) | differ) & 0x80808080u;
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
  const unsigned lane = threadIdx.x % 32;
  unsigned confirmed = 0;
  for (unsigned pending = __ballot_sync(kAll, candidates != 0); pending != 0;
       pending = __ballot_sync(kAll, candidates != 0)) {
    const int leader = __ffs(pending) - 1;
    const int bit = __ffs(__shfl_sync(kAll, candidates, leader)) - 1;
    const std::size_t position = __shfl_sync(kAll, lane_first, leader) + position_of_bit(bit);
    bool equal = true;
    for (std::size_t base = 8; base < m; base += 32) {
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

// Searches this warp's part of `tile`; matches[s] gets the verified bits of step s. Returns the
// lane's number of occurrences.
__device__ unsigned search_tile(std::size_t tile, const std::uint8_t* __restrict__ text, std::size_t n,
                                const std::uint8_t* __restrict__ pattern, std::size_t m, const Prefix& prefix,
                                unsigned (&matches)[kSteps]) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const std::size_t warp_first = tile * kTile + warp * kWarpSpan;
  const std::size_t last = n - m;  // the last position that can hold an occurrence

  // All loads first. A vector starting before n lies inside DeviceText's padded allocation.
  uint4 v[kSteps];
#pragma unroll
  for (int s = 0; s < kSteps; ++s) {
    const std::size_t at = warp_first + 512 * s + 16 * lane;
    v[s] = at < n ? *reinterpret_cast<const uint4*>(text + at) : make_uint4(0, 0, 0, 0);
  }
  const std::size_t after = warp_first + kWarpSpan;  // the two words after the warp's last piece
  const uint2 words_after = lane == 0 && after < n ? *reinterpret_cast<const uint2*>(text + after) : make_uint2(0, 0);

  unsigned lane_total = 0;
#pragma unroll
  for (int s = 0; s < kSteps; ++s) {
    // Lane L needs lane L+1's first two words; lane 31 needs the next piece's, which lane 0 holds.
    const uint4& next_piece = v[(s + 1) % kSteps];
    const bool last_step = s + 1 == kSteps;
    const unsigned provided_x = lane != 0 ? v[s].x : (last_step ? words_after.x : next_piece.x);
    const unsigned provided_y = lane != 0 ? v[s].y : (last_step ? words_after.y : next_piece.y);
    const unsigned w[6] = {v[s].x,
                           v[s].y,
                           v[s].z,
                           v[s].w,
                           __shfl_sync(kAll, provided_x, (lane + 1) % 32),
                           __shfl_sync(kAll, provided_y, (lane + 1) % 32)};
    const std::size_t lane_first = warp_first + 512 * s + 16 * lane;
    unsigned candidates = prefix_candidates(w, prefix);
    if (lane_first > last) {
      candidates = 0;
    } else if (last - lane_first < 15) {  // the text's last lane: drop positions past n - m
      for (int bit = 0; bit < 32; ++bit) {
        if (static_cast<std::size_t>(position_of_bit(bit)) > last - lane_first) candidates &= ~(1u << bit);
      }
    }
    matches[s] = m > 8 ? verify(candidates, lane_first, text, pattern, m) : candidates;
    lane_total += __popc(matches[s]);
  }
  return lane_total;
}

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    bf_v3_kernel(const std::uint8_t* __restrict__ text, std::size_t n, const std::uint8_t* __restrict__ pattern,
                 std::size_t m, unsigned long long* __restrict__ counts, const unsigned long long* __restrict__ offsets,
                 std::uint64_t* __restrict__ positions) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  Prefix prefix{{0, 0, 0, 0, 0, 0, 0, 0}, m < 8 ? static_cast<unsigned>(m) : 8u};
  for (unsigned t = 0; t < prefix.used; ++t) prefix.repeated[t] = pattern[t] * 0x01010101u;

  unsigned matches[kSteps];
  unsigned lane_total = 0;
  if constexpr (kPass == Pass::count) {
    const std::size_t tiles = (n - m + kTile) / kTile;  // positions 0 .. n - m
    for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
      lane_total += search_tile(tile, text, n, pattern, m, prefix, matches);
    }
  } else {
    lane_total = search_tile(blockIdx.x, text, n, pattern, m, prefix, matches);  // one tile per block
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
    for (int s = 0; s < kSteps; ++s) {
      const unsigned mine = __popc(matches[s]);
      const unsigned inclusive = warp_inclusive_sum(mine);
      unsigned long long slot = slot_base + inclusive - mine;
      const std::size_t lane_first = warp_first + 512 * s + 16 * lane;
      for (int k = 0; k < 4; ++k) {  // in position order: word k, then byte j
        for (unsigned bits = (matches[s] >> k) & 0x01010101u; bits != 0; bits &= bits - 1) {
          positions[slot++] = lane_first + 4 * k + (__ffs(bits) - 1) / 8;
        }
      }
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

unsigned tiles(const DeviceText& text, std::size_t m) {
  return static_cast<unsigned>((text.size() - m + kTile) / kTile);
}

// For the tests (v3_word_flags): the filter on its own.
__global__ void word_flags_kernel(const unsigned* __restrict__ lo, const unsigned* __restrict__ hi, std::size_t n,
                                  Prefix prefix, unsigned* __restrict__ flags) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) flags[i] = word_flags(lo[i], hi[i], prefix.repeated, prefix.used);
}

}  // namespace

void v3_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  static const unsigned resident = cudamatch::resident_blocks(bf_v3_kernel<Pass::count>, kThreads, 0);
  const unsigned blocks = std::min(tiles(text, pattern.size()), resident);
  cudamatch::enqueue_count_pass(bf_v3_kernel<Pass::count>, {blocks, kThreads, 0}, text, pattern, count, stream);
}

std::uint64_t v3_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream) {
  const Launch launch{tiles(text, pattern.size()), kThreads, 0};
  return cudamatch::positions_in_passes(bf_v3_kernel<Pass::count_per_block>, bf_v3_kernel<Pass::write>, launch, text,
                                        pattern, positions, stream);
}

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

}  // namespace lesson07
