// Staging a block's tile of text in shared memory, for the versions that then search it there
// (lessons 13 and 14, v2).
#pragma once

#include <cstddef>
#include <cstdint>

namespace cudamatch {

// Copies `staged` bytes (a multiple of 16) of text from tile_start (a multiple of 16) to s_text with
// 16-byte loads, threads t, t + kThreads, ... of the block each loading one vector: coalesced, every byte
// read from DRAM once in full sectors (lesson 04). DeviceText pads the text to a multiple of 16 bytes,
// so every vector that starts before n lies inside the allocation; vectors that start past it are zeros.
// The caller synchronizes the block before reading s_text.
template <int kThreads>
__device__ void stage_tile(const std::uint8_t* __restrict__ text, std::size_t n, std::size_t tile_start,
                           std::size_t staged, uint4* s_text) {
  const uint4* source = reinterpret_cast<const uint4*>(text + tile_start);
#pragma unroll 4
  for (std::size_t v = threadIdx.x; v < staged / 16; v += kThreads) {
    s_text[v] = tile_start + 16 * v < n ? source[v] : make_uint4(0, 0, 0, 0);
  }
}

}  // namespace cudamatch
