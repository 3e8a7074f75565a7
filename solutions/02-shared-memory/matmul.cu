// Lesson 02 - shared memory: the naive and the tiled matrix multiply.
// SOLUTION.
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
  // HOLE(02-shared-memory, step 1): C = A B tile by tile, through shared memory.
  __shared__ float a_tile[kTile][kTile];  // rows of C's tile x this phase's slice of K
  __shared__ float b_tile[kTile][kTile];  // this phase's slice of K x columns of C's tile
  const int tx = static_cast<int>(threadIdx.x);
  const int ty = static_cast<int>(threadIdx.y);
  const int row = static_cast<int>(blockIdx.y) * kTile + ty;
  const int col = static_cast<int>(blockIdx.x) * kTile + tx;

  float sum = 0.0f;
  for (int k0 = 0; k0 < K; k0 += kTile) {
    // Threads outside C load too: their elements are other threads' operands. Past the edges of A
    // and B they store 0, which adds nothing to any sum.
    const int a_col = k0 + tx;
    const int b_row = k0 + ty;
    a_tile[ty][tx] = (row < M && a_col < K) ? A[static_cast<std::size_t>(row) * K + a_col] : 0.0f;
    b_tile[ty][tx] = (b_row < K && col < N) ? B[static_cast<std::size_t>(b_row) * N + col] : 0.0f;
    __syncthreads();  // both tiles are complete before anyone reads them
    for (int k = 0; k < kTile; ++k) sum += a_tile[ty][k] * b_tile[k][tx];
    __syncthreads();  // nobody overwrites them (next phase) while others still read them
  }
  if (row < M && col < N) C[static_cast<std::size_t>(row) * N + col] = sum;
  // END HOLE
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
