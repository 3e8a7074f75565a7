// The chunks and tiles of lessons 13 (Boyer-Moore) and 14 (Sunday): shift-based matchers in which each
// thread runs the serial algorithm over its own chunk of window starts (v0, v1), and v2 stages the
// block's tile of text in shared memory first, in chunks of an odd number of words.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "engine/launch_limits.hpp"

namespace cudamatch {

// Shared memory per block: the versions keep their 1 KB shift table and the temporary storage of
// lesson 07's block sums in static shared memory, within kStaticSharedBytes (checked where they are
// declared); what they size at launch (pattern, tables, text tile) must fit in the rest of
// kSharedBytesPerBlock.
constexpr std::size_t kStaticSharedBytes = 2 * 1024;
constexpr std::size_t kDynamicSharedBytes = kSharedBytesPerBlock - kStaticSharedBytes;

// v0 and v1: the window starts each thread owns. Four times m, so that a thread makes several shifts
// even when every shift is the longest one (m or m + 1); at least 256, so that short patterns do not
// launch a thread per handful of bytes; at most 4096, so that a long pattern in a short text still
// keeps many threads busy and the worst case (every window compared in full, "aaa" in "aaaa...":
// chunk * m byte compares in one thread) stays bounded.
__host__ __device__ constexpr std::size_t chunk_length(std::size_t m) { return m < 64 ? 256 : m > 1024 ? 4096 : 4 * m; }

__host__ __device__ constexpr std::size_t round16(std::size_t bytes) { return (bytes + 15) / 16 * 16; }

// v2's layout for a pattern of length m.
struct TileLayout {
  std::size_t chunk;         // window starts per thread: 4 times an odd number of words; 0: v2 falls back to v1
  std::size_t tile;          // window starts per block
  std::size_t shared_bytes;  // dynamic shared memory: the tile's text and what goes beside it
};

// The layout of blocks of 256 threads when `beside_tile` bytes of dynamic shared memory go to the text
// the last windows reach past the tile and to the tables. A chunk is 4k window starts with k odd, so the
// chunk starts of a warp's threads are k words apart, in 32 different banks (lesson 03); with 4k a
// multiple of 128 all 32 would start in one bank. k = 17 (68 window starts, a tile of 17,408) up to
// m = 1088: several windows per thread, and a tile much longer than m, so that the bytes staged twice
// (by a block and the next) stay few. For longer patterns k grows with m (tile >= 16 m), within
// kDynamicSharedBytes; when less than k = 9 fits, {0, 0, 0}.
__host__ __device__ constexpr TileLayout odd_word_tiles(std::size_t m, std::size_t beside_tile) {
  constexpr std::size_t kBytesPerWordRow = 4 * 256;  // one word of chunk for every thread
  constexpr std::size_t kShortChunkWords = 17;       // up to m = 1088 (64 * 17)
  constexpr std::size_t kMinChunkWords = 9;
  if (kDynamicSharedBytes < beside_tile + kMinChunkWords * kBytesPerWordRow) return {0, 0, 0};
  const std::size_t room = (kDynamicSharedBytes - beside_tile) / kBytesPerWordRow;  // words that fit
  const std::size_t most = (room - 1) | 1;                                          // odd, <= room
  const std::size_t wanted = ((m + 63) / 64 > kShortChunkWords ? (m + 63) / 64 : kShortChunkWords) | 1;  // odd
  const std::size_t words = wanted < most ? wanted : most;
  return {4 * words, words * kBytesPerWordRow, words * kBytesPerWordRow + beside_tile};
}

}  // namespace cudamatch
