// The end of a pass (engine/search_passes.cuh) for kernels whose threads each own consecutive
// positions, a block's threads consecutive ranges, so that thread order is position order
// (lessons 11 v2, 12, 13, 14, 15 v1, 16 v1). Every thread of the block calls finish_block_pass with
// the number of occurrences it found:
//   Pass::count:           the block's total, added to counts[0] with ONE global atomic (none when 0);
//   Pass::count_per_block: the block's total, stored in counts[blockIdx.x];
//   Pass::write:           each thread's first output slot is offsets[blockIdx.x] plus the occurrences
//                          of the threads before it in the block (a block scan); write_again(out)
//                          searches the thread's range again and writes its positions from `out` on.
// A kernel whose threads must all search again (they stage text together) takes the two halves:
// add_block_total, and thread_output before its own search.
// The sums are the student's own: block_reduce_sum and block_exclusive_sum of lesson 07
// (block_sums.cuh, from the track being built; a lesson that includes this header "uses" 07-reductions
// in its lesson.json).
#pragma once

#include <block_sums.cuh>  // lesson 07's, of the track being built

#include <cstdint>

#include "engine/search_passes.cuh"

namespace cudamatch {

// The block's temporary storage for the reduction or the scan: lesson 07's (68 bytes for blocks of 256
// threads in the solution, 1 KB in the starter).
template <int kThreads>
using BlockPassTemp = BlockSumsTemp<kThreads>;

// Pass::count and Pass::count_per_block.
template <Pass kPass, int kThreads>
__device__ void add_block_total(unsigned found, BlockPassTemp<kThreads>& temp, unsigned long long* counts) {
  const unsigned block_total = block_reduce_sum(found, temp);
  if (threadIdx.x == 0) {
    if constexpr (kPass == Pass::count) {
      if (block_total > 0) atomicAdd(counts, static_cast<unsigned long long>(block_total));  // one per block
    } else {
      counts[blockIdx.x] = block_total;
    }
  }
}

// Pass::write: where this thread's occurrences go.
template <int kThreads>
__device__ std::uint64_t* thread_output(unsigned found, BlockPassTemp<kThreads>& temp,
                                        const unsigned long long* offsets, std::uint64_t* positions) {
  unsigned block_total = 0;
  const unsigned rank = block_exclusive_sum(found, temp, block_total);  // occurrences of the threads before this one
  return positions + offsets[blockIdx.x] + rank;
}

template <Pass kPass, int kThreads, class WriteAgain>
__device__ void finish_block_pass(unsigned found, BlockPassTemp<kThreads>& temp, unsigned long long* counts,
                                  const unsigned long long* offsets, std::uint64_t* positions, WriteAgain write_again) {
  if constexpr (kPass == Pass::write) {
    std::uint64_t* out = thread_output(found, temp, offsets, positions);
    if (found > 0) write_again(out);
  } else {
    add_block_total<kPass>(found, temp, counts);
  }
}

}  // namespace cudamatch
