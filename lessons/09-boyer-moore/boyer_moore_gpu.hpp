// Lesson 09 - Boyer-Moore on the GPU. Every version answers the same two questions about a text and a
// pattern already on the device (common/gpu_matcher.hpp): how many occurrences (gpu_count), and where
// (gpu_positions: sorted 0-based offsets, overlapping occurrences included).
#pragma once

#include "common/gpu_matcher.hpp"

// v0  the profiled baseline: each thread runs the serial Boyer-Moore over its own chunk of the text,
//     bad-character and good-suffix tables built on the host, everything in global memory, one global
//     atomic per match
// v1  both tables and the pattern in shared memory, one atomic per block, ordered output
// v2  tables built on the GPU (nothing prepared on the host), the block's text tile staged in shared
//     memory with 16-byte loads, chunks of an odd number of words
const cudamatch::GpuAlgorithm& boyer_moore_gpu();
