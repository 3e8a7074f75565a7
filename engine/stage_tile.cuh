// Staging a block's tile of text in shared memory, for the versions that then search it there
// (lessons 12, 13, 14, 16 and 18).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/byte_view.hpp"

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

// The same for a size known when compiling (engine/warp_tiles.cuh: KMP v3, SSEF's short patterns): a tile
// wholly before n, every tile but the text's last, is copied with no test against n, the loop unrolled.
// 5-10% faster for those kernels on an H200; Boyer-Moore's v2, whose tile grows with m, ran 11% slower at
// m = 64 with this path for its runtime size (docs/results/lesson-12.md, the lean loop), so a size known
// only at run time keeps the loop above (and lesson 18's v2, which calls that form, was not measured here).
template <int kThreads, std::size_t kStaged>
__device__ void stage_tile(const std::uint8_t* __restrict__ text, std::size_t n, std::size_t tile_start,
                           uint4* s_text) {
  static_assert(kStaged % 16 == 0, "a tile is staged in 16-byte vectors");
  if (tile_start + kStaged > n) {  // the text's last tile: zeros past n
    stage_tile<kThreads>(text, n, tile_start, kStaged, s_text);
    return;
  }
  const uint4* source = reinterpret_cast<const uint4*>(text + tile_start);
  constexpr unsigned kVectors = kStaged / 16;
#pragma unroll
  for (unsigned k = 0; k < (kVectors + kThreads - 1) / kThreads; ++k) {
    const unsigned v = threadIdx.x + k * kThreads;
    if (v < kVectors) s_text[v] = source[v];
  }
}

// The four bytes at `offset` (a multiple of 4) of a staged tile, the first one lowest: a little-endian
// word, as the GPU and the x86 or Arm host load it. (The host tests' copies of a tile need not be
// 4-byte aligned: the host copies the bytes.)
__host__ __device__ inline std::uint32_t staged_word(const std::uint8_t* staged, std::size_t offset) {
#ifdef __CUDA_ARCH__
  return *reinterpret_cast<const std::uint32_t*>(staged + offset);
#else
  std::uint32_t word = 0;
  std::memcpy(&word, staged + offset, sizeof word);
  return word;
#endif
}

// What stage_tile stages, on the host (the tests that run a kernel's threads on the CPU): staged.size()
// bytes of `text` from tile_start, zeros past its end.
inline void stage_tile_on_host(ByteView text, std::size_t tile_start, std::vector<std::uint8_t>& staged) {
  std::fill(staged.begin(), staged.end(), std::uint8_t{0});
  std::copy(text.data + tile_start, text.data + std::min(text.size, tile_start + staged.size()), staged.begin());
}

}  // namespace cudamatch
