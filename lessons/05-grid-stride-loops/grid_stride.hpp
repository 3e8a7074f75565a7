// Lesson 05 - grid-stride loops. SAXPY (y = a*x + y) launched two ways.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

// One thread per element: as many 256-thread blocks as n needs (the lesson 00 kernel).
void saxpy_monolithic(float a, const float* x, float* y, std::size_t n, cudaStream_t stream = nullptr);

// A fixed grid of `blocks` x `threads` threads that loops over all n elements, whatever n is.
// <<<1, 1>>> runs every element in one thread, in order: the debugging launch.
void saxpy_grid_stride(float a, const float* x, float* y, std::size_t n, unsigned blocks, unsigned threads,
                       cudaStream_t stream = nullptr);

// The grid the lesson recommends: `blocks_per_sm` blocks for each multiprocessor of the current device.
unsigned blocks_for_device(unsigned blocks_per_sm);
