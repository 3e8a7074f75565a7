// Lesson 13, v2: tables built on the GPU, the block's text tile in shared memory.
// STARTER: complete the TODO in bm_v2_kernel (the rest is given).
//
// Two costs are left in v1. The host builds the tables and copies them before every search: the copy
// from pageable memory waits for the stream, so every search synchronizes the host, and a small text is
// searched in less time than that takes. And the threads read the text from global memory, each in its
// own chunk: the 32 threads of a warp read 32 bytes that lie a chunk apart (256 bytes or more), 32
// different sectors for 32 useful bytes, and L1 keeps the rest of each sector only while it can.
//
// Tables: nothing is prepared on the host. A one-block kernel (bm_tables.cu) writes the good-suffix
// table to a scratch slot, in the same stream, before the search kernel; every block of the search
// then builds its bad-character table in shared memory: every entry -1, then atomicMax(last_index[c],
// j) for each pattern byte c at index j < m - 1 (the largest index wins, whatever order the threads run
// in: m - 1 shared atomics per block), and copies the good-suffix table and the pattern beside it.
//
// Text: each block first copies its whole tile, the window starts of its 256 chunks plus the m - 1
// bytes its last windows reach past them, into shared memory with coalesced 16-byte loads (lesson 04;
// engine/stage_tile.cuh): every byte of the text is read from DRAM once, in full sectors. Boyer-Moore
// then runs on shared memory, with 32-bit offsets.
//
// Layout (v2_layout, boyer_moore_gpu.hpp, and engine/chunked_tiles.hpp): a chunk is 4k window starts
// with k odd, so the chunk starts of a warp's threads are k words apart, in 32 different banks (lesson
// 03); with 4k a multiple of 128 (k = 16, 32, ...) all 32 would start in one bank. k = 17 (68 window
// starts, a tile of 17,408) up to m = 1088: several windows per thread, and a tile much longer than m,
// so the halo of m - 1 bytes staged twice (by this block and the next) stays small. For longer patterns
// k grows with m (tile >= 16 m), within the 46 KB that the tile, the good-suffix table (4m) and the
// pattern (m) may take: 24 KB up to m = 1088, so that 8 blocks of 256 threads (all 2048 threads an SM
// can hold) fit in an SM's shared memory. Patterns that leave less than k = 9 fall back to v1 (m above
// about 6,300).
#include "block_passes.cuh"
#include "bm_search.cuh"
#include "short_patterns.hpp"
#include "engine/stage_tile.cuh"

namespace cudamatch::lesson13 {

namespace {

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    bm_v2_kernel(const std::uint8_t* __restrict__ text, std::size_t n, const std::uint8_t* __restrict__ pattern,
                 std::size_t m, unsigned long long* __restrict__ counts, const unsigned long long* __restrict__ offsets,
                 std::uint64_t* __restrict__ positions, DeviceTables tables) {
  extern __shared__ uint4 shared[];  // the staged text, the good-suffix table, the pattern
  __shared__ std::int32_t last_index[256];
  __shared__ BlockTemp temp;
  const TileLayout l = v2_layout(m);
  const std::size_t staged = l.tile + round16(m - 1);
  auto* tile = reinterpret_cast<std::uint8_t*>(shared);
  auto* s_good_suffix = reinterpret_cast<std::int32_t*>(tile + staged);
  auto* s_pattern = reinterpret_cast<std::uint8_t*>(s_good_suffix + m);
  const std::size_t tile_start = static_cast<std::size_t>(blockIdx.x) * l.tile;

  // TODO(13-boyer-moore, v2): tables and text in shared memory, then this thread's windows.
  //   1. last_index[threadIdx.x] = -1 (kThreads == 256: one entry per thread); stage_tile<kThreads>(text, n,
  //      tile_start, staged, shared); copy tables.good_suffix[0, m) to s_good_suffix and pattern[0, m) to
  //      s_pattern (threads t, t + kThreads, ...). __syncthreads().
  //   2. The bad-character table: for each j < m - 1 (split over the threads),
  //      atomicMax(&last_index[s_pattern[j]], int(j)): the largest index wins whatever the order.
  //      Index it with the std::uint8_t byte, never a char. __syncthreads().
  //   3. Thread t owns the tile offsets first = t * l.chunk, up to l.chunk window starts, none past the
  //      text's last one: the block has n - m + 1 - tile_start of them (> 0), so
  //      windows = min(l.chunk, n - m + 1 - tile_start - first), 0 when first is past them.
  //   4. Count the occurrences with boyer_moore_chunk (bm_search.cuh) on tile + first, windows as an
  //      unsigned (32-bit offsets), s_pattern, last_index and s_good_suffix; no call when windows == 0.
  //   5. finish_block_pass<kPass>(found, temp, counts, offsets, positions, write_again) as in v1, writing the
  //      positions tile_start + first + s.
  (void)text, (void)n, (void)pattern, (void)counts, (void)offsets, (void)positions, (void)tables, (void)last_index;
  (void)temp, (void)s_pattern, (void)tile_start;
}
static_assert(kThreads == 256, "bm_v2_kernel initializes one bad-character entry per thread");

Launch plan(const DeviceText& text, const TileLayout& l, std::size_t m) {
  return {blocks_covering(text, m, l.tile), kThreads, l.shared_bytes};
}

// Patterns of up to kV2ShortPath bytes go to lesson 11's short path (boyer_moore_gpu.hpp); those whose
// tile does not fit in shared memory (l.chunk == 0, m above about 6,300) fall back to v1.
void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  if (pattern.size() <= kV2ShortPath) return lesson11::short_count(text, pattern, count, stream);
  const TileLayout l = v2_layout(pattern.size());
  if (l.chunk == 0) return v1.enqueue_count(text, pattern, count, stream);
  const DeviceTables tables = good_suffix_on_gpu(pattern, stream);
  enqueue_count_pass(bm_v2_kernel<Pass::count>, plan(text, l, pattern.size()), text, pattern, count, stream, tables);
}

std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                        cudaStream_t stream) {
  if (pattern.size() <= kV2ShortPath) return lesson11::short_positions(text, pattern, positions, stream);
  const TileLayout l = v2_layout(pattern.size());
  if (l.chunk == 0) return v1.positions(text, pattern, positions, stream);
  const DeviceTables tables = good_suffix_on_gpu(pattern, stream);
  return positions_in_passes(bm_v2_kernel<Pass::count_per_block>, bm_v2_kernel<Pass::write>,
                             plan(text, l, pattern.size()), text, pattern, positions, stream, tables);
}

}  // namespace

const GpuVersion v2{"v2", "tables built on the GPU, text tile staged in shared memory, odd-word chunks", count,
                    positions};

}  // namespace cudamatch::lesson13
