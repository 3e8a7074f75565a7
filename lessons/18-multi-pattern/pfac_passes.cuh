// Lesson 18 - multi-pattern search: what the kernels of v1, v2 and v3 share (given). Each is one kernel
// template over the engine's three passes (engine/search_passes.cuh):
//   Pass::count            every occurrence that ends after the first `seen` bytes adds one to its
//                          terminal's counter (the patterns of a terminal share its count);
//   Pass::count_per_block  each tile's number of output records (a terminal's patterns each make one);
//   Pass::write            after a scan of those numbers, each tile writes its records from its first
//                          slot on, in position order: a block-wide exclusive sum (lesson 07) per round
//                          gives each thread its slots. Ordered output without a sort (the few
//                          patterns of one position are put in order on the host: PfacSet::find_all).
// The kernels take tiles of consecutive positions, the block's tiles tile, tile + gridDim.x, ... (a
// grid-stride loop, lesson 05): the blocks load their shared tables once.
// Limit: a tile's records are summed in 32 bits (the lesson 07 sums), so a tile may hold 2^32 - 1 of
// them, 2^20 a position on average. Distinct patterns at one position are prefixes of each other, at
// most 65,535 within the 2^31 pattern bytes; only a set with a million duplicates can pass it.
#pragma once

#include <block_sums.cuh>  // block_reduce_sum, block_exclusive_sum: yours, from lesson 07
#include <pfac_walk.cuh>   // pfac_walk: yours

#include <cstddef>
#include <cstdint>

#include "common/aho_corasick.hpp"
#include "engine/search_passes.cuh"

namespace cudamatch::lesson18 {

// Where a pass puts what it finds.
struct Output {
  std::size_t seen;                        // count: only occurrences ending after the first `seen` bytes
  unsigned long long* terminal_counts;     // count: per terminal
  unsigned long long* tile_counts;         // count_per_block: per tile
  const unsigned long long* tile_offsets;  // write: each tile's first slot
  PatternMatch* matches;                   // write: the records
  unsigned long long records;              // write: how many `matches` holds (the scan's total)
  std::uint64_t base;                      // write: added to every offset
  const std::int32_t* terminal_first;      // the patterns of each terminal (PfacTrie)
  const std::uint32_t* terminal_patterns;
};

// One round of a block: every thread calls it (the write pass's block sum needs them all), `active`
// when it has a position to walk. walk(on_record) runs the thread's walks (v1, v2: one position; v3:
// the candidates of its window, ascending), calling on_record(terminal, position, end) at each state
// where patterns end: `position` is the walk's first byte, `end` one past the occurrence's last.
// count_per_block: adds the thread's records to `found`; write: writes them from next_slot on.
template <Pass kPass, int kThreads, class Walk>
__device__ void report_round(const Output& out, bool active, Walk walk, BlockSumsTemp<kThreads>& temp,
                             unsigned long long& next_slot, unsigned& found) {
  if constexpr (kPass == Pass::count) {
    if (active) {
      walk([&](std::int32_t terminal, std::size_t, std::size_t end) {
        if (end > out.seen) atomicAdd(&out.terminal_counts[terminal], 1ull);
      });
    }
  } else {
    unsigned mine = 0;
    if (active) {
      walk([&](std::int32_t terminal, std::size_t, std::size_t) {
        mine += static_cast<unsigned>(out.terminal_first[terminal + 1] - out.terminal_first[terminal]);
      });
    }
    if constexpr (kPass == Pass::count_per_block) {
      found += mine;
    } else {
      unsigned round_total = 0;
      unsigned long long slot = next_slot + block_exclusive_sum(mine, temp, round_total);
      if (mine > 0) {
        walk([&](std::int32_t terminal, std::size_t position, std::size_t) {
          for (std::int32_t i = out.terminal_first[terminal]; i < out.terminal_first[terminal + 1]; ++i, ++slot) {
            // Never taken when this pass walks what count_per_block walked; a kernel whose passes differ
            // (a race) then loses records, which the tests report, instead of writing past the buffer.
            if (slot >= out.records) continue;
            PatternMatch& match = out.matches[slot];
            match.offset = out.base + position;
            match.pattern = out.terminal_patterns[i];
          }
        });
      }
      next_slot += round_total;
    }
  }
}

// The end of a tile: count_per_block stores the tile's total (one block sum).
template <Pass kPass, int kThreads>
__device__ void finish_tile(const Output& out, std::size_t tile, unsigned found, BlockSumsTemp<kThreads>& temp) {
  if constexpr (kPass == Pass::count_per_block) {
    const unsigned total = block_reduce_sum(found, temp);
    if (threadIdx.x == 0) out.tile_counts[tile] = total;
  }
}

// The walks of one tile: `items` of them (the same in every thread of the block), the k-th from the
// position position_of(k) (ascending in k, for the write pass's order), kThreads per round; byte_at(i)
// is the text's byte i, from wherever the kernel keeps it. Then the tile's total (finish_tile).
template <Pass kPass, int kThreads, class Trie, class PositionOf, class ByteAt>
__device__ void walk_items(const Output& out, const Trie& trie, std::size_t n, std::size_t positions, std::size_t tile,
                           unsigned items, PositionOf position_of, ByteAt byte_at, BlockSumsTemp<kThreads>& temp) {
  unsigned found = 0;
  unsigned long long next_slot = kPass == Pass::write ? out.tile_offsets[tile] : 0;
  for (unsigned first = 0; first < items; first += kThreads) {
    const unsigned k = first + threadIdx.x;
    const std::size_t position = k < items ? position_of(k) : positions;
    const auto walk = [&](auto on_record) {
      pfac_walk(trie, position, n, byte_at,
                [&](std::int32_t terminal, std::size_t end) { on_record(terminal, position, end); });
    };
    report_round<kPass>(out, position < positions, walk, temp, next_slot, found);
  }
  finish_tile<kPass>(out, tile, found, temp);
}

// A kernel's grid: as many blocks as run at once (at most one per tile), after allowing `kernel` the
// dynamic shared memory it asks for where that and its static shared memory (the block sums' temp)
// pass the default 48 KB together (within the device's opt-in limit): the default caps their sum.
template <class Kernel>
unsigned tile_grid(Kernel kernel, int threads, std::size_t shared_bytes, std::size_t tiles) {
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel));
  if (shared_bytes + attributes.sharedSizeBytes > kSharedBytesPerBlock) {
    CUDA_CHECK(
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(shared_bytes)));
  }
  const unsigned resident = resident_blocks(kernel, threads, shared_bytes);
  return static_cast<unsigned>(tiles < resident ? tiles : resident);
}

}  // namespace cudamatch::lesson18
