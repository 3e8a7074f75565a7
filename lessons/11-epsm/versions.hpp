// Lesson 11: the entry points of each version (see common/gpu_matcher.hpp for their contract), and what
// the versions share.
#pragma once

#include <cstddef>

#include "epsm_gpu.hpp"

namespace lesson11 {

using cudamatch::DeviceBuffer;
using cudamatch::DevicePattern;
using cudamatch::DeviceText;

// Pattern bytes compared packed. A pattern of up to 16 bytes is compared whole: the bits left are the
// occurrences. A longer one is filtered on its first 16 bytes, and the positions that pass are verified
// on bytes 16 .. m-1. (The CPU's limit of 16 is the SSE register; here it is the 8 words a thread holds:
// its own 16 positions' bytes and the 16 bytes after them, which the shifts bring in.)
constexpr std::size_t kPacked = 16;

// v0 and v1: the alignments of one thread, a 16-byte block of text.
constexpr std::size_t kBlockBytes = 16;

void v0_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream);
std::uint64_t v0_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream);
void v1_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream);
std::uint64_t v1_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream);
void v2_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream);
std::uint64_t v2_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream);

}  // namespace lesson11
