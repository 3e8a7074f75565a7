// Lesson 10: the entry points of each version (see common/gpu_matcher.hpp for their contract), and the
// layouts that the versions and the tests share.
#pragma once

#include <cstddef>

#include "sunday_gpu.hpp"

namespace lesson10 {

using cudamatch::DeviceBuffer;
using cudamatch::DevicePattern;
using cudamatch::DeviceText;

// v0 and v1: the window starts each thread owns. Four times m, so that a thread makes at least four
// shifts even when every shift is the longest one (m + 1); at least 256, so that short patterns do not
// launch a thread per handful of bytes; at most 4096, so that a long pattern in a short text still keeps
// many threads busy and the worst case (every window compared in full, "aaa" in "aaaa...": chunk * m
// byte compares in one thread) stays bounded.
__host__ __device__ constexpr std::size_t chunk_length(std::size_t m) { return m < 64 ? 256 : m > 1024 ? 4096 : 4 * m; }

// Shared memory per block: 48 KB by default on every GPU since sm_75. v1 and v2 keep the shift table
// (1 KB) and CUB's temporary storage in static shared memory, within kStaticSharedBytes (checked where
// they are declared); what they size at launch (pattern, text tile) must fit in the rest.
constexpr std::size_t kSharedLimit = 48 * 1024;
constexpr std::size_t kStaticSharedBytes = 2 * 1024;
constexpr std::size_t kDynamicSharedBytes = kSharedLimit - kStaticSharedBytes;

// v2's layout for a pattern of length m (sunday_v2.cu says how it is chosen).
struct TileLayout {
  std::size_t chunk;         // window starts per thread: 4 times an odd number of words; 0: v2 falls back to v1
  std::size_t tile;          // window starts per block
  std::size_t shared_bytes;  // dynamic shared memory: the staged text and the pattern
};
TileLayout v2_layout(std::size_t m);

void v0_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream);
std::uint64_t v0_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream);
void v1_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream);
std::uint64_t v1_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream);
void v2_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream);
std::uint64_t v2_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream);

}  // namespace lesson10
