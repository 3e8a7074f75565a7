// Lesson 14, v2: the block's text tile in shared memory, each window tested on 4 bytes at once.
// SOLUTION.
//
// v1's threads still read the text from global memory, each in its own chunk: the 32 threads of a warp
// read 32 bytes that lie a chunk apart (256 bytes or more), 32 different sectors for 32 useful bytes,
// and L1 keeps the rest of each sector only while it can. v2 first copies the block's whole tile, the
// window starts of its 256 chunks plus the m bytes its last windows reach past them, into shared memory
// with coalesced 16-byte loads (lesson 04; engine/stage_tile.cuh): every byte of the text is read from
// DRAM once, in full sectors. Quick Search then runs on shared memory.
//
// Layout (v2_layout, sunday_gpu.hpp, and engine/chunked_tiles.hpp): a chunk is 4k window starts with k
// odd, so the chunk starts of a warp's threads are 32 words k apart, in 32 different banks (lesson 03);
// while the threads' windows stay at the same offset in their chunks, their loads do not conflict. k =
// 17 (68 window starts, a tile of 17,408) up to m = 1088: at least four windows per thread for m <= 16
// even when every shift is m + 1, and much more than m per block, so the m-byte halo staged twice (by
// this block and the next) stays small. For longer patterns k grows with m (tile >= 16 m), within the
// 46 KB the tile and the pattern may take; patterns that leave less than k = 9 fall back to v1 (m above
// 18,944).
//
// The window test: the 4 bytes at s are a funnel shift of the two aligned words that hold them, compared
// with the pattern's first 4 bytes as one integer (masked when m < 4). Two shared loads test 4 bytes, and
// a random window passes with probability 1/256 on DNA (1/4 with a one-byte test, Sunday's last byte
// first): the byte-by-byte verification, where the threads of a warp diverge, runs 64 times less often.
// Sunday's "last byte first" pays off on a CPU, where t[s + m - 1] shares a cache line with the shift
// byte t[s + m]; shared memory has no lines, and a word tests four bytes for two loads.
#include "block_passes.cuh"
#include "short_patterns.hpp"
#include "engine/stage_tile.cuh"

namespace cudamatch::lesson14 {

namespace {

// Quick Search over the tile's windows [first, end) (tile offsets), where `last` is the tile offset of
// the text's last window, or the tile size when that lies beyond this tile (every window of the tile then
// has its shift byte staged). Calls on_match(tile offset) for each occurrence, in order.
template <class OnMatch>
__device__ void search_chunk(const std::uint8_t* s_text, unsigned first, unsigned end, unsigned last,
                             const std::uint8_t* s_pattern, unsigned m, const int* shift, OnMatch on_match) {
  // HOLE(14-sunday, v2): Quick Search in shared memory, each window tested on its first 4 bytes.
  const unsigned* words = reinterpret_cast<const unsigned*>(s_text);
  unsigned prefix = 0, mask = 0;  // the pattern's first min(m, 4) bytes as one little-endian word
  for (unsigned j = 0; j < 4 && j < m; ++j) {
    prefix |= static_cast<unsigned>(s_pattern[j]) << (8 * j);
    mask |= 0xffu << (8 * j);
  }
  for (unsigned s = first; s < end;) {
    // words[s / 4 + 1] lies inside the staged text: s < tile, and at least 16 bytes follow the tile.
    const unsigned window = __funnelshift_r(words[s / 4], words[s / 4 + 1], 8 * (s % 4));
    if ((window & mask) == prefix) {
      unsigned j = 4;
      while (j < m && s_text[s + j] == s_pattern[j]) ++j;
      if (j >= m) on_match(s);
    }
    if (s == last) return;  // no byte after the text's last window
    s += shift[s_text[s + m]];
  }
  // END HOLE
}

Launch plan(const DeviceText& text, const TileLayout& l, std::size_t m) {
  return {blocks_covering(text, m, l.tile), kThreads, l.shared_bytes};
}

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    sunday_v2_kernel(const std::uint8_t* __restrict__ text, std::size_t n, const std::uint8_t* __restrict__ pattern,
                     std::size_t m, unsigned long long* __restrict__ counts,
                     const unsigned long long* __restrict__ offsets, std::uint64_t* __restrict__ positions) {
  extern __shared__ uint4 shared[];  // uint4: 16-byte aligned
  __shared__ int shift[256];
  __shared__ BlockTemp temp;
  const TileLayout l = v2_layout(m);  // the host checked that it fits
  const std::size_t staged = round16(l.tile + m);
  std::uint8_t* s_text = reinterpret_cast<std::uint8_t*>(shared);
  std::uint8_t* s_pattern = s_text + staged;
  const std::size_t tile_start = static_cast<std::size_t>(blockIdx.x) * l.tile;
  stage_tile<kThreads>(text, n, tile_start, staged, shared);
  build_shift_table(pattern, m, s_pattern, shift);  // its __syncthreads also covers the staged text

  // Tile offsets fit in 32 bits (the tile is under 48 KB): cheaper arithmetic in the loop.
  const std::size_t last_in_text = n - m - tile_start;  // >= 0: the grid has no block past the last window
  const auto last = static_cast<unsigned>(last_in_text < l.tile ? last_in_text : l.tile);
  const auto first = static_cast<unsigned>(threadIdx.x * l.chunk);
  const unsigned end = first + l.chunk < last + 1 ? first + static_cast<unsigned>(l.chunk) : last + 1;
  const auto pattern_length = static_cast<unsigned>(m);
  unsigned found = 0;
  search_chunk(s_text, first, end, last, s_pattern, pattern_length, shift, [&](unsigned) { ++found; });

  finish_block_pass<kPass>(found, temp, counts, offsets, positions, [&](std::uint64_t* out) {
    search_chunk(s_text, first, end, last, s_pattern, pattern_length, shift,
                 [&](unsigned s) { *out++ = tile_start + s; });
  });
}

// Patterns of up to kV2ShortPath bytes go to lesson 11's short path (sunday_gpu.hpp); those whose tile
// does not fit in shared memory (l.chunk == 0, m above 18,944) fall back to v1.
void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  if (pattern.size() <= kV2ShortPath) return lesson11::short_count(text, pattern, count, stream);
  const TileLayout l = v2_layout(pattern.size());
  if (l.chunk == 0) return v1.enqueue_count(text, pattern, count, stream);
  enqueue_count_pass(sunday_v2_kernel<Pass::count>, plan(text, l, pattern.size()), text, pattern, count, stream);
}

std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                        cudaStream_t stream) {
  if (pattern.size() <= kV2ShortPath) return lesson11::short_positions(text, pattern, positions, stream);
  const TileLayout l = v2_layout(pattern.size());
  if (l.chunk == 0) return v1.positions(text, pattern, positions, stream);
  return positions_in_passes(sunday_v2_kernel<Pass::count_per_block>, sunday_v2_kernel<Pass::write>,
                             plan(text, l, pattern.size()), text, pattern, positions, stream);
}

}  // namespace

const GpuVersion v2{"v2", "text tile staged in shared memory, odd-word chunks, 4-byte window test", count, positions};

}  // namespace cudamatch::lesson14
