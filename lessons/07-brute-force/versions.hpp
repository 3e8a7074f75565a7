// Lesson 07: the entry points of each version, called by brute_force_gpu.cu's dispatch.
#pragma once

#include "brute_force_gpu.hpp"

namespace lesson07 {

using cudamatch::DeviceBuffer;
using cudamatch::DeviceText;

std::uint64_t v0_count(const DeviceText& text, const DeviceBuffer<std::uint8_t>& pattern, cudaStream_t stream);
std::uint64_t v0_positions(const DeviceText& text, const DeviceBuffer<std::uint8_t>& pattern,
                           DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream);

std::uint64_t v1_count(const DeviceText& text, const DeviceBuffer<std::uint8_t>& pattern, cudaStream_t stream);
std::uint64_t v1_positions(const DeviceText& text, const DeviceBuffer<std::uint8_t>& pattern,
                           DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream);

std::uint64_t v2_count(const DeviceText& text, const DeviceBuffer<std::uint8_t>& pattern, cudaStream_t stream);
std::uint64_t v2_positions(const DeviceText& text, const DeviceBuffer<std::uint8_t>& pattern,
                           DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream);

// The count first, then room for that many positions (a clear error when they cannot fit).
void ensure_capacity(DeviceBuffer<std::uint64_t>& positions, std::uint64_t count);

}  // namespace lesson07
