// Lesson 03 - bank conflicts: from a naive transpose to a shared-memory tile, and the padding that
// takes the bank conflicts out of the tile.
// SOLUTION.
//
// Every kernel runs the grid of transpose_grid(): block (blockIdx.x, blockIdx.y) owns the input tile
// of rows blockIdx.y * kTile + [0, 32) and columns blockIdx.x * kTile + [0, 32); thread
// (threadIdx.x, threadIdx.y) handles the tile's column threadIdx.x in rows threadIdx.y + j for
// j = 0, 8, 16, 24. Element offsets are computed in std::size_t: rows * cols may pass 2^32.
#include "common/cuda_check.hpp"
#include "transpose.hpp"

namespace {

// Every element stays where it is: both sides coalesced, with the grid and per-thread walk of the
// tiled kernels. No transpose moves its bytes faster, so this is the ceiling it is measured against.
__global__ void transpose_copy_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t rows,
                                      std::size_t cols) {
  const std::size_t row = static_cast<std::size_t>(blockIdx.y) * kTile + threadIdx.y;
  const std::size_t col = static_cast<std::size_t>(blockIdx.x) * kTile + threadIdx.x;
  for (int j = 0; j < kTile; j += kBlockRows) {
    if (row + j < rows && col < cols) out[(row + j) * cols + col] = in[(row + j) * cols + col];
  }
}

// A warp (32 consecutive threadIdx.x) reads 32 consecutive floats of one input row, then writes them
// down one output column: 32 addresses `rows` floats apart, 32 sectors for 128 useful bytes.
__global__ void transpose_naive_write_strided_kernel(const float* __restrict__ in, float* __restrict__ out,
                                                     std::size_t rows, std::size_t cols) {
  const std::size_t row = static_cast<std::size_t>(blockIdx.y) * kTile + threadIdx.y;
  const std::size_t col = static_cast<std::size_t>(blockIdx.x) * kTile + threadIdx.x;
  for (int j = 0; j < kTile; j += kBlockRows) {
    if (row + j < rows && col < cols) out[col * rows + (row + j)] = in[(row + j) * cols + col];
  }
}

// The output side of the tiled kernels without the tile: the block writes the output tile at the
// swapped position (output rows are input columns), a warp 32 consecutive floats of an output row,
// and fetches each of them from a different input row.
__global__ void transpose_naive_read_strided_kernel(const float* __restrict__ in, float* __restrict__ out,
                                                    std::size_t rows, std::size_t cols) {
  const std::size_t out_row = static_cast<std::size_t>(blockIdx.x) * kTile + threadIdx.y;
  const std::size_t out_col = static_cast<std::size_t>(blockIdx.y) * kTile + threadIdx.x;
  for (int j = 0; j < kTile; j += kBlockRows) {
    if (out_row + j < cols && out_col < rows) out[(out_row + j) * rows + out_col] = in[out_col * cols + (out_row + j)];
  }
}

// kRowPitch: the words one row of the tile takes in shared memory. kTile (32) puts column c of every
// row in bank c, so a warp reading a column hits one bank 32 times; kTile + 1 (33) shifts each row
// by one bank, and the column is spread over all 32. ncu names the two transpose_tiled_kernel<32>
// and transpose_tiled_kernel<33>.
template <int kRowPitch>
__global__ void transpose_tiled_kernel(const float* __restrict__ in, float* __restrict__ out, std::size_t rows,
                                       std::size_t cols) {
  static_assert(kRowPitch >= kTile, "a row of the tile needs kTile words");
  // HOLE(03-bank-conflicts, step 1): transpose through a shared-memory tile.
  __shared__ float tile[kTile][kRowPitch];

  // Load: a warp reads 32 consecutive floats of an input row into a row of the tile.
  const std::size_t in_row = static_cast<std::size_t>(blockIdx.y) * kTile + threadIdx.y;
  const std::size_t in_col = static_cast<std::size_t>(blockIdx.x) * kTile + threadIdx.x;
  for (int j = 0; j < kTile; j += kBlockRows) {
    if (in_row + j < rows && in_col < cols) tile[threadIdx.y + j][threadIdx.x] = in[(in_row + j) * cols + in_col];
  }

  // Each warp is about to read a column of the tile, 32 values that all 8 warps loaded.
  __syncthreads();

  // Store: the block's output tile sits at the swapped position; a warp writes 32 consecutive floats
  // of an output row, which are a column of the tile. The bounds are those of the load, swapped, so
  // only elements that were loaded are read.
  const std::size_t out_row = static_cast<std::size_t>(blockIdx.x) * kTile + threadIdx.y;
  const std::size_t out_col = static_cast<std::size_t>(blockIdx.y) * kTile + threadIdx.x;
  for (int j = 0; j < kTile; j += kBlockRows) {
    if (out_row + j < cols && out_col < rows) out[(out_row + j) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
  }
  // END HOLE
}

// HOLE(03-bank-conflicts, step 2): pad the tile.
constexpr int kPaddedPitch = kTile + 1;
// END HOLE

using TransposeKernel = void (*)(const float*, float*, std::size_t, std::size_t);

void launch(TransposeKernel kernel, const float* in, float* out, std::size_t rows, std::size_t cols,
            cudaStream_t stream) {
  if (rows == 0 || cols == 0) return;
  kernel<<<transpose_grid(rows, cols), transpose_block(), 0, stream>>>(in, out, rows, cols);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void transpose_copy(const float* in, float* out, std::size_t rows, std::size_t cols, cudaStream_t stream) {
  launch(transpose_copy_kernel, in, out, rows, cols, stream);
}

void transpose_naive_write_strided(const float* in, float* out, std::size_t rows, std::size_t cols,
                                   cudaStream_t stream) {
  launch(transpose_naive_write_strided_kernel, in, out, rows, cols, stream);
}

void transpose_naive_read_strided(const float* in, float* out, std::size_t rows, std::size_t cols,
                                  cudaStream_t stream) {
  launch(transpose_naive_read_strided_kernel, in, out, rows, cols, stream);
}

void transpose_tiled(const float* in, float* out, std::size_t rows, std::size_t cols, cudaStream_t stream) {
  launch(transpose_tiled_kernel<kTile>, in, out, rows, cols, stream);
}

void transpose_padded(const float* in, float* out, std::size_t rows, std::size_t cols, cudaStream_t stream) {
  launch(transpose_tiled_kernel<kPaddedPitch>, in, out, rows, cols, stream);
}

std::size_t transpose_static_shared_bytes(bool padded) {
  cudaFuncAttributes attributes{};
  CUDA_CHECK(cudaFuncGetAttributes(&attributes,
                                   padded ? transpose_tiled_kernel<kPaddedPitch> : transpose_tiled_kernel<kTile>));
  return attributes.sharedSizeBytes;
}
