// Lesson 07: how the optimized versions are launched (given). A version is a kernel template over
// three passes; this file runs them:
//   count mode:     Pass::count, each block adds its total to one counter (one atomic per block);
//   positions mode: Pass::count_per_block writes each block's total, an exclusive scan (CUB) turns
//                   totals into each block's first output slot, Pass::write writes every block's
//                   matches there in position order. Ordered output, no sort.
#pragma once

#include <cub/device/device_scan.cuh>

#include "common/cuda_check.hpp"
#include "versions.hpp"

namespace lesson07 {

enum class Pass { count, count_per_block, write };

using SearchKernel = void (*)(const std::uint8_t* text, std::size_t n, const std::uint8_t* pattern, std::size_t m,
                              unsigned long long* counts, const unsigned long long* offsets, std::uint64_t* positions);

struct Launch {
  unsigned blocks;
  unsigned threads;
  std::size_t shared_bytes;
};

inline unsigned long long read_back(const unsigned long long* device_value, cudaStream_t stream) {
  unsigned long long value = 0;
  CUDA_CHECK(cudaMemcpyAsync(&value, device_value, sizeof value, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return value;
}

inline std::uint64_t count_in_passes(SearchKernel count_kernel, const Launch& launch, const DeviceText& text,
                                     const DeviceBuffer<std::uint8_t>& pattern, cudaStream_t stream) {
  DeviceBuffer<unsigned long long> count(1);
  CUDA_CHECK(cudaMemsetAsync(count.data(), 0, sizeof(unsigned long long), stream));
  count_kernel<<<launch.blocks, launch.threads, launch.shared_bytes, stream>>>(
      text.data(), text.size(), pattern.data(), pattern.size(), count.data(), nullptr, nullptr);
  CUDA_CHECK_LAUNCH();
  return read_back(count.data(), stream);
}

inline std::uint64_t positions_in_passes(SearchKernel per_block_kernel, SearchKernel write_kernel, const Launch& launch,
                                         const DeviceText& text, const DeviceBuffer<std::uint8_t>& pattern,
                                         DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream) {
  // The scan's output has one slot more than there are blocks: its last entry is the total.
  DeviceBuffer<unsigned long long> counts(launch.blocks + 1), offsets(launch.blocks + 1);
  CUDA_CHECK(cudaMemsetAsync(counts.data(), 0, counts.bytes(), stream));
  per_block_kernel<<<launch.blocks, launch.threads, launch.shared_bytes, stream>>>(
      text.data(), text.size(), pattern.data(), pattern.size(), counts.data(), nullptr, nullptr);
  CUDA_CHECK_LAUNCH();
  std::size_t scratch_bytes = 0;
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scratch_bytes, counts.data(), offsets.data(), launch.blocks + 1, stream));
  DeviceBuffer<std::uint8_t> scratch(scratch_bytes);
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(scratch.data(), scratch_bytes, counts.data(), offsets.data(),
                                           launch.blocks + 1, stream));
  const std::uint64_t total = read_back(offsets.data() + launch.blocks, stream);
  ensure_capacity(positions, total);
  if (total > 0) {
    write_kernel<<<launch.blocks, launch.threads, launch.shared_bytes, stream>>>(
        text.data(), text.size(), pattern.data(), pattern.size(), nullptr, offsets.data(), positions.data());
    CUDA_CHECK_LAUNCH();
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  return total;
}

}  // namespace lesson07
