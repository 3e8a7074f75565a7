// Lesson 15, v1: the masks built four bytes per instruction.
// SOLUTION.
//
// v0 builds each 16-bit mask from 16 byte compares: extract the byte, compare, insert the bit, some
// 100 instructions per pattern byte for 16 alignments. A 32-bit register holds four text bytes, and one
// XOR with the pattern byte repeated four times (byte_simd.cuh) compares all four: a byte of the result
// is zero exactly where text and pattern byte are equal. v1 keeps EPSM's structure on such words:
//   - the mask of pattern byte j for the alignments 4i .. 4i+3 is the text seen j positions further on,
//     shifted(w[i + j/4], w[i + j/4 + 1], j % 4), XOR p[j] repeated: the shift by j is a step of j/4
//     whole words (another register) and a byte shift by j % 4 (one PRMT);
//   - EPSM ANDs "equal" masks; here the masks say "differ" (nonzero byte), so they are ORed: a byte of
//     differ[i] stays zero while its alignment has matched every pattern byte so far;
//   - at the end zero_byte_flags and flag_bits turn the four words into v0's 16-bit mask, bit q for
//     alignment first + q.
// Two instructions per pattern byte and word (byte shift; XOR and OR in one LOP3): half an instruction per
// alignment and pattern byte, against about six in v0. Like v0 (and the CPU), a thread stops after every
// fourth pattern byte when none of its 16 alignments is left. Patterns longer than 16 bytes: the thread
// verifies bytes 16 .. m-1 of its candidates one by one.
//
// Output: a block's 256 threads own 4096 consecutive alignments, in thread order, so count mode adds
// the block's total with ONE atomic, and positions mode writes them in order through
// engine/search_passes.cuh (count per block, scan, write): no sort.
#include "byte_simd.cuh"
#include "engine/block_pass.cuh"
#include "engine/search_passes.cuh"
#include "epsm_gpu.hpp"

namespace cudamatch::lesson15 {

namespace {

constexpr int kThreads = 256;
constexpr std::size_t kTile = kThreads * kBlockBytes;  // alignments per block

using BlockTemp = BlockPassTemp<kThreads>;

// Bit q set when the alignment q of the block matches pattern[0 .. packed) (1 <= packed <= 16).
// w[0..3] are the block's four words, w[4..7] the next block's, which the shifts bring in.
__device__ unsigned packed_compare(const unsigned (&w)[8], const std::uint8_t* __restrict__ pattern, unsigned packed) {
  // HOLE(15-epsm, v1): EPSM's packed compare on 32-bit words (byte_simd.cuh has the pieces).
  unsigned differ[4] = {0, 0, 0, 0};  // byte b of differ[i]: alignment 4i + b, zero while it matches
#pragma unroll
  for (unsigned j = 0; j < kPacked; ++j) {
    if (j == packed) break;
    if (j % 4 == 0 && j > 0) {  // after every fourth pattern byte: is any alignment left?
      if ((any_zero_byte(differ[0]) | any_zero_byte(differ[1]) | any_zero_byte(differ[2]) | any_zero_byte(differ[3])) ==
          0) {
        return 0;
      }
    }
    const unsigned p = repeated(pattern[j]);
#pragma unroll
    for (unsigned i = 0; i < 4; ++i) differ[i] |= shifted(w[i + j / 4], w[i + j / 4 + 1], j % 4) ^ p;
  }
  unsigned bits = 0;
#pragma unroll
  for (unsigned i = 0; i < 4; ++i) bits |= flag_bits(zero_byte_flags(differ[i])) << (4 * i);
  return bits;
  // END HOLE
}

// Keeps the bits whose alignment also matches pattern bytes kPacked .. m-1, compared one by one.
__device__ unsigned verify(unsigned bits, const std::uint8_t* __restrict__ text, std::size_t first,
                           const std::uint8_t* __restrict__ pattern, std::size_t m) {
  for (unsigned left = bits; left != 0; left &= left - 1) {
    const int q = __ffs(left) - 1;
    for (std::size_t j = kPacked; j < m; ++j) {
      if (text[first + q + j] != pattern[j]) {
        bits &= ~(1u << q);
        break;
      }
    }
  }
  return bits;
}

// The occurrences among the thread's 16 alignments, first .. first + 15, as bits.
__device__ unsigned thread_matches(const std::uint8_t* __restrict__ text, std::size_t n,
                                   const std::uint8_t* __restrict__ pattern, std::size_t m, std::size_t first) {
  const std::size_t last = n - m;  // the last alignment
  if (first > last) return 0;
  // Inside the allocation: first < n, and DeviceText pads to a multiple of 16 bytes plus 16.
  const uint4 block = *reinterpret_cast<const uint4*>(text + first);
  const uint4 next = *reinterpret_cast<const uint4*>(text + first + kBlockBytes);
  const unsigned w[8] = {block.x, block.y, block.z, block.w, next.x, next.y, next.z, next.w};
  unsigned bits = packed_compare(w, pattern, static_cast<unsigned>(m < kPacked ? m : kPacked));
  if (last - first < kBlockBytes - 1) bits &= (2u << (last - first)) - 1;  // alignments past n - m
  return m > kPacked ? verify(bits, text, first, pattern, m) : bits;
}

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    epsm_v1_kernel(const std::uint8_t* __restrict__ text, std::size_t n, const std::uint8_t* __restrict__ pattern,
                   std::size_t m, unsigned long long* __restrict__ counts,
                   const unsigned long long* __restrict__ offsets, std::uint64_t* __restrict__ positions) {
  __shared__ BlockTemp temp;
  const std::size_t first = (static_cast<std::size_t>(blockIdx.x) * kThreads + threadIdx.x) * kBlockBytes;
  const unsigned bits = thread_matches(text, n, pattern, m, first);
  const auto found = static_cast<unsigned>(__popc(bits));

  finish_block_pass<kPass>(found, temp, counts, offsets, positions, [&](std::uint64_t* out) {
    for (unsigned left = bits; left != 0; left &= left - 1) *out++ = first + __ffs(left) - 1;
  });
}

Launch plan(const DeviceText& text, std::size_t m) { return {blocks_covering(text, m, kTile), kThreads, 0}; }

void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  enqueue_count_pass(epsm_v1_kernel<Pass::count>, plan(text, pattern.size()), text, pattern, count, stream);
}

std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                        cudaStream_t stream) {
  return positions_in_passes(epsm_v1_kernel<Pass::count_per_block>, epsm_v1_kernel<Pass::write>,
                             plan(text, pattern.size()), text, pattern, positions, stream);
}

}  // namespace

const GpuVersion v1{"v1", "masks of four bytes per instruction on 32-bit words, ordered output", count, positions};

}  // namespace cudamatch::lesson15
