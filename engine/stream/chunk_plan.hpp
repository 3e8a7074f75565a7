// The streamed search (lesson 17): how an input too long for the GPU is cut into chunks for a pattern
// of m bytes.
//
// Chunk k owns the C positions [kC, kC + C): the occurrences that START there are its own. To see
// them whole it needs the m - 1 bytes after its last position too, so its window is the bytes
// [kC, kC + C + m - 1) of the input, cut at the input's end. Consecutive windows overlap by m - 1
// bytes. An occurrence at p lies entirely in the window of chunk p / C and starts in no other chunk's
// C bytes, so every occurrence is reported exactly once, chunk after chunk, in order.
//
// The overlap rule: a chunk is never shorter than its overlap (C >= m - 1), so no byte crosses the
// link more than twice; a chunk asked for shorter than that grows to m - 1 bytes. The ring's windows
// must fit the device budget: when they do not, the chunk shrinks, and when even a chunk of m - 1
// bytes does not fit, the pattern is too long for the budget (an error that says so).
#pragma once

#include <cstddef>
#include <cstdint>

namespace cudamatch {

struct ChunkPlan {
  std::size_t pattern_bytes = 1;  // m
  std::size_t chunk_bytes = 1;    // C: the positions each chunk owns

  std::size_t overlap() const { return pattern_bytes - 1; }
  // The bytes a chunk's window holds when the input goes on past it.
  std::size_t window_bytes() const { return chunk_bytes + overlap(); }
  // Where chunk k's window starts in the input.
  std::uint64_t offset(std::uint64_t chunk) const { return chunk * chunk_bytes; }
  // The chunks of an input of n bytes: one per C positions, none when n < m (no occurrence fits).
  std::uint64_t chunks(std::uint64_t n) const;
  // The bytes of chunk k's window in an input of n bytes (the last window may be shorter).
  std::size_t window_bytes(std::uint64_t chunk, std::uint64_t n) const;
};

// Device memory one window of `window` bytes takes (DeviceText::allocation_bytes: a text is padded to a
// multiple of 16 bytes plus 16).
std::size_t device_window_bytes(std::size_t window);

// The plan for a pattern of m bytes: `chunk_bytes` asked for, grown to m - 1 (the overlap rule), then
// shrunk (to a multiple of 16 bytes of window) until `slots` windows fit in `device_budget` bytes
// (0: no budget). Throws EmptyPatternError for m = 0; std::invalid_argument for
// chunk_bytes = 0 or slots = 0, and when the budget cannot hold `slots` windows of a chunk of
// max(1, m - 1) bytes (the message says how much it would take).
ChunkPlan plan_chunks(std::size_t m, std::size_t chunk_bytes, std::size_t slots, std::size_t device_budget);

}  // namespace cudamatch
