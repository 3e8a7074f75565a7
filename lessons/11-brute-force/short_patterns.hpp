// Lesson 11 - the short-pattern path (given, not part of the exercise): brute force for patterns of
// under 16 bytes, every position compared directly, for the patterns the later matchers' filters and
// skips cannot serve. SSEF v2 (lesson 16) hands it every pattern shorter than 16 bytes, where its
// blocks are 1 to 8 bytes a few bytes apart and the filter examines a block every few bytes;
// Boyer-Moore v2 and Sunday v2 (lessons 13 and 14) hand it their shortest patterns, whose shifts
// cannot exceed a few bytes. docs/results/lesson-13.md, -14.md and -16.md have the measurements.
// Its threads run one by one on the CPU for the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/byte_view.hpp"
#include "engine/device_text.hpp"

namespace cudamatch::lesson11 {

// The short path searches patterns of 1 to kShortPatterns - 1 bytes.
constexpr std::size_t kShortPatterns = 16;

// The positions a thread of the short path owns: 9 words, an odd number, so that the 32 threads of a
// warp reading word w of their strides hit 32 different banks (lesson 03).
constexpr std::size_t kShortStride = 36;
constexpr std::size_t kShortThreads = 256;                        // a block's threads
constexpr std::size_t kShortTile = kShortThreads * kShortStride;  // a block's positions per tile: 9,216

// Pass::count and the two passes of positions mode, as every version's entry points (1 <= m <
// kShortPatterns, m <= n).
void short_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream);
std::uint64_t short_positions(const DeviceText& text, const DevicePattern& pattern,
                              DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream);

// What the kernel's threads find, thread after thread on the CPU, each from a copy of its block's tile
// staged as the kernel stages it (1 <= m < kShortPatterns): the occurrences in thread order.
std::vector<std::uint64_t> short_scan_on_host(ByteView text, ByteView pattern);

}  // namespace cudamatch::lesson11
