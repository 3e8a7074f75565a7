// Lesson 16 - the short-pattern path of v2 (given). Below 16 bytes SSEF's blocks are 1 to 8 bytes long
// and a few bytes apart (ssef_plan.hpp): the filter examines a block every few bytes of text and the
// lesson's kernels reach only a small share of the read bandwidth there (docs/results/lesson-16.md). So
// v2 hands patterns shorter than kShortPatterns to this kernel, which compares every position directly,
// its first four bytes in one word compare. Its threads run one by one on the CPU for the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/byte_view.hpp"
#include "engine/device_text.hpp"

namespace cudamatch::lesson16 {

// v2 searches patterns of kShortPatterns bytes or more itself; shorter ones go to the short path.
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

}  // namespace cudamatch::lesson16
