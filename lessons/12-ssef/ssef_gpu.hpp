// Lesson 12 - SSEF on the GPU: filter the text on fingerprints of a few aligned blocks, verify the few
// alignments that pass. Every version answers the same two questions about a text and a pattern
// already on the device (common/gpu_matcher.hpp): how many occurrences (gpu_count), and where
// (gpu_positions: sorted 0-based offsets, overlapping occurrences included).
#pragma once

#include "common/gpu_matcher.hpp"

// v0  the profiled baseline: linked-list table built on the host, one thread per examined block, byte loads
// v1  CSR table built on the GPU, one load per block, ordered output with one atomic per block
// v2  bucket bitmap in shared memory, block compared from registers, warp-cooperative verification
const cudamatch::GpuAlgorithm& ssef_gpu();
