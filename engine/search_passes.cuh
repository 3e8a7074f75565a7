// How the optimized GPU matchers are launched (lessons 11-16). A version is one kernel template over
// three passes; these helpers run them:
//   count mode:     Pass::count, each block adds its total to one counter (one atomic per block);
//   positions mode: Pass::count_per_block writes each block's total, an exclusive scan (CUB) turns
//                   the totals into each block's first output slot, Pass::write writes every block's
//                   matches there in position order. Ordered output, no sort.
// Blocks must own consecutive ranges of positions, in block order, for the output to come out sorted.
// A kernel may take arguments of its own after the seven shared ones (a matcher's tables): the
// launchers pass on whatever follows the stream.
// The scratch memory is reused between calls (engine/search_scratch.hpp): no allocation per search.
#pragma once

#include <cub/device/device_scan.cuh>

#include "common/cuda_check.hpp"
#include "common/device_info.hpp"
#include "engine/device_text.hpp"
#include "engine/gpu_matcher.hpp"
#include "engine/launch_limits.hpp"
#include "engine/search_scratch.hpp"

namespace cudamatch {

enum class Pass { count, count_per_block, write };

template <class... Extra>
using SearchKernelWith = void (*)(const std::uint8_t* text, std::size_t n, const std::uint8_t* pattern, std::size_t m,
                                  unsigned long long* counts, const unsigned long long* offsets,
                                  std::uint64_t* positions, Extra... extra);
using SearchKernel = SearchKernelWith<>;

// Extra arguments are deduced from the kernel alone.
template <class T>
struct NotDeduced {
  using type = T;
};

struct Launch {
  unsigned blocks;
  unsigned threads;
  std::size_t shared_bytes;
};

// The blocks that cover the positions 0 .. n - m of `text`, `per_block` positions each (m <= n).
inline unsigned blocks_covering(const DeviceText& text, std::size_t m, std::size_t per_block) {
  return static_cast<unsigned>((text.size() - m + per_block) / per_block);
}

// How many blocks of `threads` threads running `kernel` fit on the current GPU at once: the grid of
// a grid-stride launch (lesson 05).
template <class Kernel>
unsigned resident_blocks(Kernel kernel, int threads, std::size_t shared_bytes) {
  const int sms = current_device_sm_count();
  int per_sm = 0;
  CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, shared_bytes));
  return static_cast<unsigned>(sms * (per_sm > 0 ? per_sm : 1));
}

// Pass::count: adds the occurrences to *count.
template <class... Extra>
void enqueue_count_pass(SearchKernelWith<Extra...> count_kernel, const Launch& launch, const DeviceText& text,
                        const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream,
                        typename NotDeduced<Extra>::type... extra) {
  count_kernel<<<launch.blocks, launch.threads, launch.shared_bytes, stream>>>(
      text.data(), text.size(), pattern.data(), pattern.size(), count, nullptr, nullptr, extra...);
  CUDA_CHECK_LAUNCH();
}

// The exclusive scan (CUB, its temporary storage in the scratch) of counts[0, slots) into
// offsets[0, slots), queued in `stream`, and its last entry read back (synchronizes `stream`): with a
// last count of zero, the total of the others. The first output slot of each block of a write pass.
inline std::uint64_t scan_counts(const unsigned long long* counts, unsigned long long* offsets, std::size_t slots,
                                 cudaStream_t stream) {
  std::size_t temp_bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, temp_bytes, counts, offsets, slots, stream));
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch_bytes(ScratchSlot::scan_temp, temp_bytes), temp_bytes, counts,
                                           offsets, slots, stream));
  unsigned long long* last = pinned_readback(1);
  CUDA_CHECK(cudaMemcpyAsync(last, offsets + slots - 1, sizeof *last, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return *last;
}

template <class... Extra>
std::uint64_t positions_in_passes(SearchKernelWith<Extra...> per_block_kernel, SearchKernelWith<Extra...> write_kernel,
                                  const Launch& launch, const DeviceText& text, const DevicePattern& pattern,
                                  DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream,
                                  typename NotDeduced<Extra>::type... extra) {
  // The scan has one slot more than there are blocks: its last entry is the total.
  const std::size_t slots = std::size_t{launch.blocks} + 1;
  auto* counts = scratch<unsigned long long>(ScratchSlot::block_counts, slots);
  auto* offsets = scratch<unsigned long long>(ScratchSlot::block_offsets, slots);
  CUDA_CHECK(cudaMemsetAsync(counts, 0, slots * sizeof(unsigned long long), stream));
  per_block_kernel<<<launch.blocks, launch.threads, launch.shared_bytes, stream>>>(
      text.data(), text.size(), pattern.data(), pattern.size(), counts, nullptr, nullptr, extra...);
  CUDA_CHECK_LAUNCH();
  const std::uint64_t found = scan_counts(counts, offsets, slots, stream);
  ensure_capacity(positions, found);
  if (found > 0) {
    write_kernel<<<launch.blocks, launch.threads, launch.shared_bytes, stream>>>(
        text.data(), text.size(), pattern.data(), pattern.size(), nullptr, offsets, positions.data(), extra...);
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  return found;
}

}  // namespace cudamatch
