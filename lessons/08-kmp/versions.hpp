// Lesson 08: the entry points of each version (see common/gpu_matcher.hpp for their contract).
#pragma once

#include "kmp_gpu.hpp"

namespace lesson08 {

using cudamatch::DeviceBuffer;
using cudamatch::DevicePattern;
using cudamatch::DeviceText;

void v0_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream);
std::uint64_t v0_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream);
void v1_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream);
std::uint64_t v1_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream);
void v2_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream);
std::uint64_t v2_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream);

}  // namespace lesson08
