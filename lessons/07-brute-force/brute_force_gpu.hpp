// Lesson 07 - brute force on the GPU. Every version answers the same two questions about a text and
// a pattern already on the device (common/gpu_matcher.hpp): how many occurrences (gpu_count), and
// where (gpu_positions: sorted 0-based offsets, overlapping occurrences included).
#pragma once

#include "common/gpu_matcher.hpp"

// v0  the profiled baseline: one thread per position, global memory, one global atomic per match
// v1  text tile and pattern in shared memory (16-byte loads), one atomic per block, ordered output
// v2  16 positions per thread filtered on two bytes with byte-SIMD compares, then verified
// v3  a four-byte filter on whole words, candidates verified by the whole warp, 32 bytes a step
const cudamatch::GpuAlgorithm& brute_force_gpu();
