// Lesson 10 - Sunday's Quick Search on the GPU. Every version answers the same two questions about a
// text and a pattern already on the device (common/gpu_matcher.hpp): how many occurrences (gpu_count),
// and where (gpu_positions: sorted 0-based offsets, overlapping occurrences included).
#pragma once

#include "common/gpu_matcher.hpp"

// v0  the profiled baseline: each thread runs the serial Quick Search over its own chunk of the text,
//     shift table built on the host, everything in global memory, one global atomic per match
// v1  shift table and pattern built in shared memory by each block, one atomic per block, ordered output
// v2  the block's text tile staged in shared memory (16-byte loads, chunks of an odd number of words),
//     each window tested on its first 4 bytes at once
const cudamatch::GpuAlgorithm& sunday_gpu();
