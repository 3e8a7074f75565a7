// Lesson 01 - coalescing.
// SOLUTION.
#include "common/cuda_check.hpp"
#include "coalescing.hpp"
#include "launch_2d.hpp"

namespace {

// Given: the strided mapping. threadIdx.x picks the ROW, so the 32 threads of a warp touch
// a[row][col] for 32 consecutive rows: addresses 4 * cols bytes apart, 32 sectors per request.
// Each thread adds the elements of 4 columns, kBlockY apart.
__global__ void add_2d_strided_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                      int rows, int cols) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  const int first_col = blockIdx.y * lesson01::kTileY + threadIdx.y;
  for (int col = first_col; col < first_col + lesson01::kTileY; col += blockDim.y) {
    if (row < rows && col < cols) {
      const std::size_t i = static_cast<std::size_t>(row) * cols + col;
      c[i] = a[i] + b[i];
    }
  }
}

__global__ void add_2d_coalesced_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                        int rows, int cols) {
  // HOLE(01-coalescing): the coalesced mapping.
  // threadIdx.x picks the COLUMN: a warp reads 32 neighbouring floats of one row, 4 sectors.
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int first_row = blockIdx.y * lesson01::kTileY + threadIdx.y;
  for (int row = first_row; row < first_row + lesson01::kTileY; row += blockDim.y) {
    if (row < rows && col < cols) {
      const std::size_t i = static_cast<std::size_t>(row) * cols + col;
      c[i] = a[i] + b[i];
    }
  }
  // END HOLE
}

__global__ void add_1d_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                              std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

}  // namespace

void add_2d_coalesced(const float* a, const float* b, float* c, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const dim3 block(lesson01::kBlockX, lesson01::kBlockY);
  add_2d_coalesced_kernel<<<lesson01::grid_covering(cols, rows), block, 0, stream>>>(a, b, c, rows, cols);
  CUDA_CHECK_LAUNCH();
}

void add_2d_strided(const float* a, const float* b, float* c, int rows, int cols, cudaStream_t stream) {
  if (rows <= 0 || cols <= 0) return;
  const dim3 block(lesson01::kBlockX, lesson01::kBlockY);
  add_2d_strided_kernel<<<lesson01::grid_covering(rows, cols), block, 0, stream>>>(a, b, c, rows, cols);
  CUDA_CHECK_LAUNCH();
}

void add_1d(const float* a, const float* b, float* c, std::size_t n, std::size_t offset, cudaStream_t stream) {
  if (n == 0) return;
  const unsigned threads = 256;
  const auto blocks = static_cast<unsigned>((n + threads - 1) / threads);
  add_1d_kernel<<<blocks, threads, 0, stream>>>(a + offset, b + offset, c + offset, n);
  CUDA_CHECK_LAUNCH();
}
