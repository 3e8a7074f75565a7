// The warp-tile layout of lessons 11 (v3), 15 (v2) and 16 (v2), and the end of its passes
// (engine/search_passes.cuh). A block of kWarps warps owns a tile of consecutive positions; in it each
// lane owns kPieces pieces, and the order of the pieces in the text is (warp, piece, lane): warp w's
// range comes before warp w + 1's, and within it piece p of every lane before piece p + 1. Lanes load
// their pieces first and examine them after, so several loads are in flight per thread.
//
// Count mode loops each block over the tiles (grid-stride, lesson 05): as many blocks as fit on the GPU
// at once, one barrier and one atomic per block at the very end. Positions mode takes one tile per
// block; the write pass orders the output with a warp scan per piece and a block scan over the warps.
#pragma once

#include <block_sums.cuh>  // warp_inclusive_sum: lesson 07's, of the track being built

#include <cstddef>
#include <cstdint>

#include "engine/device_text.hpp"
#include "engine/gpu_matcher.hpp"
#include "engine/search_passes.cuh"
#include "engine/stage_tile.cuh"

namespace cudamatch {

constexpr unsigned kAllLanes = 0xffffffffu;

// Pass::count: search_tile(t) for the tiles t = blockIdx.x, blockIdx.x + gridDim.x, ... < tiles.
// The other passes: search_tile(blockIdx.x) alone.
template <Pass kPass, class SearchTile>
__device__ void search_tiles(std::size_t tiles, SearchTile search_tile) {
  if constexpr (kPass == Pass::count) {
    for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) search_tile(tile);
  } else {
    search_tile(blockIdx.x);
  }
}

// The block's tiles of kTile positions covering the positions 0 .. n - m, as search_tiles takes them,
// each staged first (kStaged bytes from the tile's first position, engine/stage_tile.cuh) in s_text
// between two barriers: search(tile_first) then reads it there. Returns the first position of the last
// tile searched, still staged (the write pass, one tile per block, searches it again).
template <Pass kPass, int kThreads, std::size_t kTile, std::size_t kStaged, class Search>
__device__ std::size_t search_staged_tiles(const std::uint8_t* __restrict__ text, std::size_t n, std::size_t m,
                                           uint4* s_text, Search search) {
  std::size_t tile_first = 0;
  search_tiles<kPass>((n - m + kTile) / kTile, [&](std::size_t tile) {
    tile_first = tile * kTile;
    __syncthreads();  // every thread is done with the previous tile
    stage_tile<kThreads, kStaged>(text, n, tile_first, s_text);
    __syncthreads();
    search(tile_first);
  });
  return tile_first;
}

// A warp's pieces of text in lessons 11 and 15: lane L's piece p is the 16 bytes at
// warp_first + 512 p + 16 L, loaded by the constructor before any is examined (kPieces 16-byte loads in
// flight per lane); bytes at or past n read as zeros. A vector that starts before n lies inside
// DeviceText's padded allocation.
template <int kPieces>
struct WarpPieces {
  __device__ WarpPieces(const std::uint8_t* __restrict__ text, std::size_t n, std::size_t warp_first) {
    const unsigned lane = threadIdx.x % 32;
#pragma unroll
    for (int p = 0; p < kPieces; ++p) own[p] = load(text, n, warp_first + 512 * p + 16 * lane);
    after = lane == 0 ? load(text, n, warp_first + 512 * kPieces) : make_uint4(0, 0, 0, 0);
  }

  // What this lane lends the lane before it for piece p, whose last positions reach into the next
  // lane's bytes (__shfl_sync from lane L + 1): its own bytes; lane 0's go to lane 31 and are the
  // next piece's first, or the 16 bytes after the warp's range.
  __device__ uint4 lent(int p) const {
    if (threadIdx.x % 32 != 0) return own[p];
    return p + 1 < kPieces ? own[p + 1] : after;
  }

  uint4 own[kPieces];
  uint4 after;  // lane 0: the 16 bytes after the warp's last piece

 private:
  __device__ static uint4 load(const std::uint8_t* __restrict__ text, std::size_t n, std::size_t at) {
    return at < n ? *reinterpret_cast<const uint4*>(text + at) : make_uint4(0, 0, 0, 0);
  }
};

// Every thread of the block calls it, with found[p] = its occurrences in piece p (summed over the tiles
// in count mode):
//   Pass::count:           the block's total, added to counts[0] with ONE global atomic (none when 0);
//   Pass::count_per_block: the block's total, stored in counts[blockIdx.x];
//   Pass::write:           write_again(out), where out[p] is where the lane's occurrences of piece p go
//                          (in the text's order: *out[p]++ = position).
template <Pass kPass, int kWarps, int kPieces, class WriteAgain>
__device__ void finish_warp_tile_pass(const unsigned (&found)[kPieces], unsigned long long* counts,
                                      const unsigned long long* offsets, std::uint64_t* positions,
                                      WriteAgain write_again) {
  __shared__ unsigned long long warp_totals[kWarps];
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned lane_total = 0;
#pragma unroll
  for (int p = 0; p < kPieces; ++p) lane_total += found[p];
  const unsigned warp_total = __shfl_sync(kAllLanes, warp_inclusive_sum(lane_total), 31);
  if (lane == 0) warp_totals[warp] = warp_total;
  __syncthreads();
  if constexpr (kPass == Pass::write) {
    unsigned long long slot = offsets[blockIdx.x];  // the warp's first: after the warps before it
    for (unsigned w = 0; w < warp; ++w) slot += warp_totals[w];
    std::uint64_t* out[kPieces];
#pragma unroll
    for (int p = 0; p < kPieces; ++p) {
      const unsigned inclusive = warp_inclusive_sum(found[p]);
      out[p] = positions + slot + inclusive - found[p];
      slot += __shfl_sync(kAllLanes, inclusive, 31);  // the warp's occurrences in piece p
    }
    write_again(out);
  } else if (threadIdx.x == 0) {
    unsigned long long block_total = 0;
    for (int w = 0; w < kWarps; ++w) block_total += warp_totals[w];
    if constexpr (kPass == Pass::count) {
      if (block_total > 0) atomicAdd(counts, block_total);  // one global atomic per block
    } else {
      counts[blockIdx.x] = block_total;
    }
  }
}

// The whole pass for versions whose lanes own 16 positions a piece (lessons 11 and 15), kWarps warps
// per block and kPieces pieces per lane (a tile of 512 * kPieces * kWarps positions). Every lane calls
//   piece_bits(own, lent, lane_first): the occurrences among positions lane_first .. lane_first + 15 as
//     bits, in the version's own order (WarpPieces: `own` holds the lane's 16 bytes, `lent` what the next
//     lane lends); it is called by every lane of the warp, so it may shuffle and vote, and must drop
//     positions past n - m itself;
//   write_bits(bits, lane_first, out) in the write pass: the positions of `bits`, written from `out` on
//     in the text's order.
template <Pass kPass, int kWarps, int kPieces, class PieceBits, class WriteBits>
__device__ void warp_tile_pass(const std::uint8_t* __restrict__ text, std::size_t n, std::size_t m,
                               unsigned long long* counts, const unsigned long long* offsets, std::uint64_t* positions,
                               PieceBits piece_bits, WriteBits write_bits) {
  constexpr std::size_t kWarpSpan = 512 * kPieces;  // positions per warp and tile
  constexpr std::size_t kTile = kWarpSpan * kWarps;
  const std::size_t warp_offset = threadIdx.x / 32 * kWarpSpan + 16 * (threadIdx.x % 32);  // the lane's, in a tile
  unsigned bits[kPieces];
  unsigned found[kPieces] = {};
  search_tiles<kPass>((n - m + kTile) / kTile, [&](std::size_t tile) {
    const WarpPieces<kPieces> pieces(text, n, tile * kTile + threadIdx.x / 32 * kWarpSpan);
#pragma unroll
    for (int p = 0; p < kPieces; ++p) {
      bits[p] = piece_bits(pieces.own[p], pieces.lent(p), tile * kTile + warp_offset + 512 * p);
      found[p] += __popc(bits[p]);
    }
  });
  finish_warp_tile_pass<kPass, kWarps>(found, counts, offsets, positions, [&](std::uint64_t*(&out)[kPieces]) {
#pragma unroll
    for (int p = 0; p < kPieces; ++p) write_bits(bits[p], blockIdx.x * kTile + warp_offset + 512 * p, out[p]);
  });
}

// The two entry points (engine/gpu_matcher.hpp) of a version whose passes are kCount, kPerBlock and
// kWrite (one kernel template), blocks of kThreads threads with no dynamic shared memory, and tiles of
// kTile positions: count mode with as many blocks as fit on the GPU at once (never more than there
// are tiles), positions mode with one block per tile.
template <SearchKernel kCount, SearchKernel kPerBlock, SearchKernel kWrite, int kThreads, std::size_t kTile>
struct WarpTileVersion {
  static unsigned tiles(const DeviceText& text, std::size_t m) { return blocks_covering(text, m, kTile); }
  static void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count,
                    cudaStream_t stream) {
    static const unsigned resident = resident_blocks(kCount, kThreads, 0);
    const unsigned blocks = tiles(text, pattern.size()) < resident ? tiles(text, pattern.size()) : resident;
    enqueue_count_pass(kCount, {blocks, kThreads, 0}, text, pattern, count, stream);
  }
  static std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern,
                                 DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream) {
    return positions_in_passes(kPerBlock, kWrite, {tiles(text, pattern.size()), kThreads, 0}, text, pattern, positions,
                               stream);
  }
};

// Keeps the candidate bits of each lane whose position holds pattern bytes [from, m) too. Bit b of a
// lane's `candidates` stands for position lane_first + position_of_bit(b). Every lane of the warp calls
// it: the warp takes the candidates one at a time and its 32 lanes compare 32 bytes per step (one
// __all_sync per step), so a long pattern costs (m - from) / 32 steps and no lane idles while another
// verifies.
template <class PositionOfBit>
__device__ unsigned warp_verify(unsigned candidates, std::size_t lane_first, const std::uint8_t* __restrict__ text,
                                const std::uint8_t* __restrict__ pattern, std::size_t from, std::size_t m,
                                PositionOfBit position_of_bit) {
  const unsigned lane = threadIdx.x % 32;
  unsigned confirmed = 0;
  for (unsigned pending = __ballot_sync(kAllLanes, candidates != 0); pending != 0;
       pending = __ballot_sync(kAllLanes, candidates != 0)) {
    const int leader = __ffs(pending) - 1;
    const int bit = __ffs(__shfl_sync(kAllLanes, candidates, leader)) - 1;
    const std::size_t position = __shfl_sync(kAllLanes, lane_first, leader) + position_of_bit(bit);
    bool equal = true;
    for (std::size_t base = from; equal && base < m; base += 32) {
      const std::size_t j = base + lane;
      equal = __all_sync(kAllLanes, j >= m || text[position + j] == pattern[j]);
    }
    if (lane == static_cast<unsigned>(leader)) {
      candidates &= candidates - 1;
      if (equal) confirmed |= 1u << bit;
    }
  }
  return confirmed;
}

}  // namespace cudamatch
