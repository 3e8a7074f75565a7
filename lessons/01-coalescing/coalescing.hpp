// Lesson 01 - coalescing. Element-wise adds whose only difference is which addresses the 32 threads
// of a warp touch together.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

// C = A + B for row-major rows x cols matrices. Blocks of 32 x 8 threads each cover 32 x 32 elements:
// a thread adds 4 elements, 8 apart along y, so that each has 4 independent loads in flight.
// Coalesced: threadIdx.x walks along a row, so a warp reads 32 neighbouring floats.
void add_2d_coalesced(const float* a, const float* b, float* c, int rows, int cols, cudaStream_t stream = nullptr);
// Strided: threadIdx.x walks down a column, so a warp reads 32 floats `cols` apart.
void add_2d_strided(const float* a, const float* b, float* c, int rows, int cols, cudaStream_t stream = nullptr);

// c[offset + i] = a[offset + i] + b[offset + i] for i < n: one thread per element, 256 per block.
// offset = 1 makes every warp's 128 bytes straddle a 128-byte boundary.
void add_1d(const float* a, const float* b, float* c, std::size_t n, std::size_t offset, cudaStream_t stream = nullptr);

// The largest extent the 2-D launches accept in the dimension mapped to gridDim.y (65535 blocks of
// 32); a larger matrix throws std::invalid_argument rather than launching a wrong grid.
inline constexpr int kMaxExtentY = 65535 * 32;
