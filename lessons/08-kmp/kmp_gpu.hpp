// Lesson 08 - Knuth-Morris-Pratt on the GPU. Every version answers the same two questions about a
// text and a pattern already on the device (common/gpu_matcher.hpp): how many occurrences
// (gpu_count), and where (gpu_positions: sorted 0-based offsets, overlapping occurrences included).
#pragma once

#include "common/gpu_matcher.hpp"

// v0  the profiled baseline: a thread runs the KMP automaton over its own chunk of the text, failure
//     table built on the host, text and table read from global memory, one global atomic per match
// v1  failure table built by each block in shared memory, one atomic per block, ordered output
// v2  the text staged in shared memory (coalesced 16-byte loads, conflict-free reads), a full DFA
//     instead of the failure loop for patterns of up to 16 bytes
const cudamatch::GpuAlgorithm& kmp_gpu();
