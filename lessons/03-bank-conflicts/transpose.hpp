// Lesson 03 - bank conflicts. What the student implements (transpose.cu) and what the driver, the
// tests and the race demo call.
//
// Matrices are row-major floats. `in` has `rows` rows of `cols` floats; `out` has `cols` rows of
// `rows` floats, and every transpose writes out[c * rows + r] = in[r * cols + c].
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <stdexcept>

// Every kernel of the lesson runs the same grid: one block of kTile x kBlockRows threads per
// kTile x kTile tile of the input, block (x, y) owning input rows [y * kTile, y * kTile + kTile)
// and columns [x * kTile, x * kTile + kTile). A block has fewer threads than its tile has elements
// so that each thread moves kTile / kBlockRows = 4 of them, which amortizes the index arithmetic.
constexpr int kTile = 32;
constexpr int kBlockRows = 8;

// The most input rows the grid can cover: gridDim.y is at most 65535 tiles on every GPU.
constexpr std::size_t kMaxTransposeRows = std::size_t{65535} * kTile;

inline dim3 transpose_block() { return dim3(kTile, kBlockRows); }

// The grid for a rows x cols input (both > 0). Throws std::invalid_argument for a shape the grid
// cannot cover: more than kMaxTransposeRows rows, or more than 2^31 - 1 tiles across.
inline dim3 transpose_grid(std::size_t rows, std::size_t cols) {
  const std::size_t tiles_across = (cols + kTile - 1) / kTile;
  const std::size_t tiles_down = (rows + kTile - 1) / kTile;
  if (rows > kMaxTransposeRows) throw std::invalid_argument("transpose: more than 2097120 rows");
  if (tiles_across > 0x7FFFFFFFu) throw std::invalid_argument("transpose: more than 2^31 - 1 tiles across");
  return dim3(static_cast<unsigned>(tiles_across), static_cast<unsigned>(tiles_down));
}

// Each function queues its kernel on `stream` and returns at once. `in` and `out` must not overlap
// and `out` must hold rows * cols floats. rows or cols 0: nothing is launched. A shape that the grid
// cannot cover throws std::invalid_argument (see transpose_grid) before anything is launched.

// The ceiling: out = in, NOT transposed (out is rows x cols), with the grid, block and per-thread
// walk of the tiled kernels. Reads and writes are both coalesced: no transpose can beat it.
void transpose_copy(const float* in, float* out, std::size_t rows, std::size_t cols, cudaStream_t stream = nullptr);

// Naive: each thread reads in[r][c] and writes out[c][r] straight away. The reads of a warp are 32
// consecutive floats (coalesced); its writes are 32 floats `rows` apart (strided).
void transpose_naive_write_strided(const float* in, float* out, std::size_t rows, std::size_t cols,
                                   cudaStream_t stream = nullptr);

// Naive the other way round: the writes of a warp are consecutive (coalesced), its reads strided.
void transpose_naive_read_strided(const float* in, float* out, std::size_t rows, std::size_t cols,
                                  cudaStream_t stream = nullptr);

// Through a __shared__ float tile[32][32]: coalesced reads into the tile, coalesced writes out of it.
// Reading the tile by column is a 32-way shared-memory bank conflict.
void transpose_tiled(const float* in, float* out, std::size_t rows, std::size_t cols, cudaStream_t stream = nullptr);

// The same through a __shared__ float tile[32][33]: one word of padding per row, no bank conflict.
void transpose_padded(const float* in, float* out, std::size_t rows, std::size_t cols, cudaStream_t stream = nullptr);

// The static shared memory, in bytes, of the kernel behind transpose_padded (padded = true) or
// transpose_tiled (padded = false), as cudaFuncGetAttributes reports it: the padding made visible.
std::size_t transpose_static_shared_bytes(bool padded);
