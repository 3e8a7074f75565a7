// Lesson 11 - EPSM-alpha, packed string matching, on the GPU. Every version answers the same two
// questions about a text and a pattern already on the device (common/gpu_matcher.hpp): how many
// occurrences (gpu_count), and where (gpu_positions: sorted 0-based offsets, overlapping ones included).
#pragma once

#include "common/gpu_matcher.hpp"

// v0  the direct port: a thread per 16-byte block builds a 16-bit mask per pattern byte one byte at a
//     time, shifts and ANDs them; one global atomic per thread with matches, positions sorted on the host
// v1  the masks built four bytes per instruction (XOR and the zero-byte test on 32-bit words), one
//     atomic per block, ordered output
// v2  a warp's lanes share their words (shuffles) and each word's three byte shifts, the test for
//     survivors is warp-uniform, long patterns are verified by the whole warp, grid-stride count pass
const cudamatch::GpuAlgorithm& epsm_gpu();
