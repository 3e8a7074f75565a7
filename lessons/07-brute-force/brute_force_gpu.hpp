// Lesson 07 - brute force on the GPU. Every version answers the same two questions about a text and
// a pattern that are already on the device: how many occurrences (count mode), and where (positions
// mode: the sorted 0-based offsets of every occurrence, overlapping ones included).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "common/buffers.hpp"
#include "common/device_text.hpp"

enum class BruteForceVersion {
  v0,  // the profiled baseline: one thread per position, global memory, one global atomic per match
  v1,  // text tile and pattern in shared memory (16-byte loads), one atomic per block, ordered output
  v2,  // 16 positions per thread filtered four at a time with byte-SIMD compares, then verified
};

// The number of occurrences of `pattern` (pattern.size() bytes, at least 1) in `text`.
std::uint64_t bf_count(BruteForceVersion version, const cudamatch::DeviceText& text,
                       const cudamatch::DeviceBuffer<std::uint8_t>& pattern, cudaStream_t stream = nullptr);

// The same, and the sorted offsets of the occurrences in positions[0, count). `positions` is
// reallocated when it is too small; otherwise its contents past the count are left as they were.
// More occurrences than device memory can hold end in a CudaError naming the size asked for.
std::uint64_t bf_positions(BruteForceVersion version, const cudamatch::DeviceText& text,
                           const cudamatch::DeviceBuffer<std::uint8_t>& pattern,
                           cudamatch::DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream = nullptr);
