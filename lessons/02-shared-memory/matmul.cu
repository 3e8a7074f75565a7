// Lesson 02 - shared memory: the naive and the tiled matrix multiply.
// STARTER: complete the TODO.
#include <cstddef>
#include <stdexcept>

#include "common/cuda_check.hpp"
#include "matmul.hpp"

namespace {

// One thread per element of C. x runs along a row of C, so the 32 threads of a warp read 32
// consecutive floats of a row of B (coalesced) and all read the same float of A (a broadcast).
// Every operand comes from global memory: 2K loads for 2K floating-point operations.
__global__ void matmul_naive_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                    int M, int K, int N) {
  const int row = static_cast<int>(blockIdx.y * blockDim.y + threadIdx.y);
  const int col = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (row >= M || col >= N) return;
  const float* a_row = A + static_cast<std::size_t>(row) * K;
  float sum = 0.0f;
  for (int k = 0; k < K; ++k) sum += a_row[k] * B[static_cast<std::size_t>(k) * N + col];
  C[static_cast<std::size_t>(row) * N + col] = sum;
}

// One thread per element of C as above, one kTile x kTile block per tile of C. The block walks
// along K in phases: its threads copy a tile of A and a tile of B into shared memory, one element
// each, then every thread takes its kTile products from there. Each float loaded from global memory
// serves kTile threads.
__global__ void matmul_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                    int M, int K, int N) {
  // TODO(02-shared-memory, step 1): C = A B tile by tile, through shared memory.
  //   This thread computes C[row][col] with row = blockIdx.y * kTile + threadIdx.y and
  //   col = blockIdx.x * kTile + threadIdx.x; write tx = threadIdx.x, ty = threadIdx.y.
  //   1. Declare the two tiles: __shared__ float a_tile[kTile][kTile]; and the same for b_tile.
  //   2. Start a running sum at 0.0f and walk along K one phase per tile:
  //      for (int k0 = 0; k0 < K; k0 += kTile) { steps 3 to 6 }.
  //   3. Every thread of the block loads ONE element of each tile:
  //        a_tile[ty][tx] = A[row][k0 + tx]   (0.0f when row >= M or k0 + tx >= K)
  //        b_tile[ty][tx] = B[k0 + ty][col]   (0.0f when k0 + ty >= K or col >= N)
  //      A[r][c] is A[r * K + c] and B[r][c] is B[r * N + c]; compute these offsets in std::size_t.
  //      Do not return early from threads outside C: they load elements that other threads need,
  //      and every thread of the block must reach every __syncthreads().
  //   4. __syncthreads(): no thread may read the tiles before all of them have been written.
  //   5. For k = 0 .. kTile-1: sum += a_tile[ty][k] * b_tile[k][tx] (the zeros make the edges right).
  //   6. __syncthreads() again: no thread may overwrite the tiles in the next phase while others
  //      still read them.
  //   7. After the loop, only where row < M and col < N: C[row * N + col] = sum. With K = 0 the loop
  //      never runs and C must still be written: all zeros.
}

// Throws for negative sizes; false when C is empty and there is nothing to launch.
bool needs_launch(int M, int K, int N) {
  if (M < 0 || K < 0 || N < 0) throw std::invalid_argument("matmul: negative matrix size");
  return M > 0 && N > 0;
}

// One kTile x kTile block per tile of C, x along its columns. (n - 1) / kTile + 1 rounds up without
// overflowing for n near INT_MAX.
dim3 tiles_of_c(int M, int N) {
  return dim3(static_cast<unsigned>((N - 1) / kTile + 1), static_cast<unsigned>((M - 1) / kTile + 1));
}

}  // namespace

void matmul_naive(const float* A, const float* B, float* C, int M, int K, int N, cudaStream_t stream) {
  if (!needs_launch(M, K, N)) return;
  matmul_naive_kernel<<<tiles_of_c(M, N), dim3(kTile, kTile), 0, stream>>>(A, B, C, M, K, N);
  CUDA_CHECK_LAUNCH();
}

void matmul_tiled(const float* A, const float* B, float* C, int M, int K, int N, cudaStream_t stream) {
  if (!needs_launch(M, K, N)) return;
  matmul_tiled_kernel<<<tiles_of_c(M, N), dim3(kTile, kTile), 0, stream>>>(A, B, C, M, K, N);
  CUDA_CHECK_LAUNCH();
}
