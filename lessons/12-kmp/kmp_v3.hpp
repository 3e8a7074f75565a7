// Lesson 12, v3: the fixed stride of its threads, and its threads run one by one on the CPU (for the
// tests: the scan a thread makes is a __host__ __device__ function of kmp_v3.cu, the same code on both
// sides).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/byte_view.hpp"

namespace cudamatch::lesson12 {

// The positions each thread of v3 owns, whatever m: 17 words, an odd number, so that the 32 threads of a
// warp reading word w of their strides hit 32 different banks (lesson 03).
constexpr std::size_t kStride = 68;

// A block of kV3Threads threads owns a tile of kV3Threads strides, staged in shared memory with
// kStagedPastTile bytes more (where most scans past the tile end).
constexpr int kV3Threads = 256;
constexpr std::size_t kStagedPastTile = 64;

// The longest pattern v3 searches itself: its 16-bit failure table and the table's construction (2 + 5
// bytes a state) fit in 48 KB of shared memory (checked where the tables are laid out, kmp_v3.cu).
// Longer ones go to v1.
constexpr std::size_t kLongestPattern = 6872;

// What v3's threads do, thread after thread on the CPU, on `text` and `pattern` (1 <= m <=
// kLongestPattern, else std::invalid_argument): thread k owns the positions [k kStride, (k + 1) kStride)
// and scans as the kernel's threads do, from a copy of its block's tile staged as the kernel stages it
// (the bytes past it from the whole text).
struct ThreadScans {
  std::vector<std::uint64_t> positions;    // every thread's occurrences, thread after thread
  std::vector<std::size_t> bytes_scanned;  // per thread: the bytes it fed to the automaton
};
ThreadScans scan_threads_on_host(ByteView text, ByteView pattern);

}  // namespace cudamatch::lesson12
