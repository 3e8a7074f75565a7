// Lesson 02 - shared memory. What the student implements (matmul.cu) and what the driver and the
// tests call.
//
// Matrices are row-major floats: A is M x K, B is K x N, and C = A B is M x N, so that
// C[i][j] = sum over k of A[i][k] * B[k][j], with A[i][k] at A[i * K + k].
#pragma once

#include <cuda_runtime.h>

// The side of the square tiles of A and B that matmul_tiled stages in shared memory, and of the
// thread blocks of both kernels (32 x 32 = 1024 threads, one per element of a tile of C).
constexpr int kTile = 32;

// C = A B with one thread per element of C, reading A and B straight from global memory. Any
// M, K, N >= 0: M = 0 or N = 0 launches nothing, K = 0 writes C = 0. Negative sizes throw
// std::invalid_argument. Returns as soon as the kernel is queued on `stream`.
void matmul_naive(const float* A, const float* B, float* C, int M, int K, int N, cudaStream_t stream = nullptr);

// The same product, computed tile by tile from kTile x kTile tiles of A and B staged in shared memory.
void matmul_tiled(const float* A, const float* B, float* C, int M, int K, int N, cudaStream_t stream = nullptr);
