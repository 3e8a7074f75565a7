// Lesson 15, v0: the direct port of EPSM-alpha, the baseline the optimized versions are measured
// against. Given.
//
// On the CPU (common/matchers/epsm.cpp) one SSE compare of 16 text bytes with a pattern byte p[j],
// then movemask, gives a 16-bit mask "text byte q equals p[j]"; shifted right by j, bit q compares
// t[q + j] with p[j], and the AND of those masks over j has bit q set exactly where the pattern occurs.
// Here a thread takes one 16-byte block of text, the alignments first .. first + 15, and the 16 bytes
// after it, which the shifts bring in (bits 16.. of the 32-bit pair). For each pattern byte it builds
// both 16-bit masks one byte at a time, 32 compares, what SSE does in two instructions. Like the CPU it
// stops when the AND is zero, tested after every fourth pattern byte.
//
// Patterns of up to kPacked (16) bytes are compared whole: the bits left are the occurrences. Longer
// patterns: the bits left are candidates that match the first 16 bytes, and the thread compares bytes
// 16 .. m-1 of each with the text, one byte at a time.
//
// The thread adds its popcount to the global counter with one atomicAdd, which also reserves the slots
// for its positions. The threads' slots come in no particular order, so the host sorts the positions.
#include "common/cuda_check.hpp"
#include "engine/unordered_search.cuh"
#include "epsm_gpu.hpp"

namespace cudamatch::lesson15 {

namespace {

constexpr unsigned kThreads = 256;

// Bit q set when byte q of the 16 bytes in `v` equals c: a movemask built one byte at a time.
__device__ unsigned equal_bits(const uint4& v, std::uint8_t c) {
  const unsigned words[4] = {v.x, v.y, v.z, v.w};
  unsigned bits = 0;
#pragma unroll
  for (unsigned q = 0; q < 16; ++q) {
    const auto byte = static_cast<std::uint8_t>(words[q / 4] >> (8 * (q % 4)));
    bits |= static_cast<unsigned>(byte == c) << q;
  }
  return bits;
}

// With `positions` null, only counts.
__global__ void epsm_v0_kernel(const std::uint8_t* text, std::size_t n, const std::uint8_t* pattern, std::size_t m,
                               unsigned long long* count, std::uint64_t* positions) {
  const std::size_t first = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) * kBlockBytes;
  const std::size_t last = n - m;  // the last alignment; the callers ensure m <= n
  if (first > last) return;
  // first < n and DeviceText pads the text with zeros to a multiple of 16 bytes plus 16: both vectors
  // lie inside the allocation.
  const uint4 block = *reinterpret_cast<const uint4*>(text + first);
  const uint4 next = *reinterpret_cast<const uint4*>(text + first + kBlockBytes);

  const std::size_t packed = m < kPacked ? m : kPacked;
  unsigned d = 0xffffu;  // bit q: alignment first + q matches every pattern byte compared so far
  for (std::size_t j = 0; j < packed; ++j) {
    const unsigned equal = equal_bits(block, pattern[j]) | equal_bits(next, pattern[j]) << 16;
    d &= equal >> j;
    if (j % 4 == 3 && d == 0) break;
  }
  if (last - first < kBlockBytes - 1) d &= (2u << (last - first)) - 1;  // alignments past n - m
  for (unsigned bits = m > kPacked ? d : 0; bits != 0; bits &= bits - 1) {
    const std::size_t s = first + __ffs(bits) - 1;
    for (std::size_t j = kPacked; j < m; ++j) {
      if (text[s + j] != pattern[j]) {
        d &= ~(1u << (s - first));
        break;
      }
    }
  }
  if (d == 0) return;
  unsigned long long slot = atomicAdd(count, static_cast<unsigned long long>(__popc(d)));
  if (positions != nullptr) {
    for (; d != 0; d &= d - 1) positions[slot++] = first + __ffs(d) - 1;
  }
}

void search(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, std::uint64_t* positions,
            cudaStream_t stream) {
  launch_per_item((text.size() - pattern.size()) / kBlockBytes + 1, kThreads, stream, epsm_v0_kernel, text.data(),
                  text.size(), pattern.data(), pattern.size(), count, positions);
}

}  // namespace

const GpuVersion v0 =
    unordered_version<search>("v0", "16-bit mask per pattern byte built byte by byte, one atomic per thread");

}  // namespace cudamatch::lesson15
