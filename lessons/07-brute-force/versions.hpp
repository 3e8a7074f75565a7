// Lesson 07: the entry points of each version (see common/gpu_matcher.hpp for their contract).
#pragma once

#include "brute_force_gpu.hpp"

namespace lesson07 {

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
void v3_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream);
std::uint64_t v3_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream);

// For the tests (bf_v3.cu, given): flags[i] = v3's word_flags(lo[i], hi[i]) for the pattern bytes
// first[0, used), used 1 to 4. lo, hi and flags are device memory of n words; only queues the work.
void v3_word_flags(const unsigned* lo, const unsigned* hi, std::size_t n, const std::uint8_t* first, unsigned used,
                   unsigned* flags, cudaStream_t stream);

}  // namespace lesson07
