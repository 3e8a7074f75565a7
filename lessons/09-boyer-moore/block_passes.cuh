// Lesson 09: the end of every pass, which v1 and v2 share (common/search_passes.cuh explains the passes:
// count; count per block, scan, write in order). Their kernels take the pattern's tables as an extra last
// argument, which the shared launchers pass on.
#pragma once

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

#include "bm_tables.hpp"
#include "common/search_passes.cuh"
#include "versions.hpp"

namespace lesson09 {

using cudamatch::Launch;
using cudamatch::Pass;

constexpr int kThreads = 256;  // v1 and v2's blocks

using BlockReduce = cub::BlockReduce<unsigned, kThreads>;
using BlockScan = cub::BlockScan<unsigned, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;  // small temporary storage
union BlockTemp {
  typename BlockReduce::TempStorage reduce;
  typename BlockScan::TempStorage scan;
};
// The bad-character table and BlockTemp are the kernels' static shared memory.
static_assert(256 * sizeof(std::int32_t) + sizeof(BlockTemp) <= kStaticSharedBytes, "static shared memory over budget");

// The end of a pass. Every thread of the block calls it with the number of occurrences in its chunk.
//   Pass::count:           the block's total, added to counts[0] with ONE global atomic;
//   Pass::count_per_block: the block's total, stored in counts[blockIdx.x];
//   Pass::write:           each thread's first output slot is offsets[blockIdx.x] plus the occurrences of
//                          the threads before it in the block (a block scan: threads own consecutive
//                          chunks, so thread order is position order); write_again(out) searches the
//                          thread's chunk again and writes its positions from `out` on.
template <Pass kPass, class WriteAgain>
__device__ void finish_pass(unsigned found, BlockTemp& temp, unsigned long long* counts,
                            const unsigned long long* offsets, std::uint64_t* positions, WriteAgain write_again) {
  if constexpr (kPass == Pass::write) {
    unsigned rank = 0;
    BlockScan(temp.scan).ExclusiveSum(found, rank);
    if (found > 0) write_again(positions + offsets[blockIdx.x] + rank);
  } else {
    const unsigned block_total = BlockReduce(temp.reduce).Sum(found);
    if (threadIdx.x == 0) {
      if constexpr (kPass == Pass::count) {
        if (block_total > 0) atomicAdd(counts, static_cast<unsigned long long>(block_total));
      } else {
        counts[blockIdx.x] = block_total;
      }
    }
  }
}

}  // namespace lesson09
