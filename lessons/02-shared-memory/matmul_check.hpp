// The CPU reference of the matrix multiply, shared by the tests and the driver.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/random.hpp"

// C[i][j] of C = A B (row-major, A is M x K, B is K x N) in float64, and through `abs_sum` the sum
// over k of |A[i][k] B[k][j]|, the scale of the rounding error a float computation may make. Each
// product is exact in float64 (24 + 24 significant bits < 53).
inline double reference_element(const float* A, const float* B, int K, int N, int i, int j, double* abs_sum) {
  const float* a_row = A + static_cast<std::size_t>(i) * K;
  double sum = 0.0;
  double magnitude = 0.0;
  for (int k = 0; k < K; ++k) {
    const double product = static_cast<double>(a_row[k]) * B[static_cast<std::size_t>(k) * N + j];
    sum += product;
    magnitude += std::fabs(product);
  }
  *abs_sum = magnitude;
  return sum;
}

// Whether `c`, a float sum of the K float products of C[i][j], is right. Summed in any order, with or
// without fused multiply-adds, it is within gamma_K * abs_sum of the exact value, where
// gamma_n = n u / (1 - n u) and u = 2^-24 (Higham, Accuracy and Stability of Numerical Algorithms,
// section 3.1; no underflow or overflow assumed). gamma_{K+2} adds at least 2u * abs_sum, more than
// the float64 reference's own error (about K 2^-53 abs_sum), so a right answer never fails, and a NaN
// always does. K = 0 leaves no slack at all: C must be exactly 0.
inline bool matmul_element_ok(float c, double reference, double abs_sum, int K) {
  const double nu = (K + 2.0) * 0x1.0p-24;
  const double tolerance = nu / (1.0 - nu) * abs_sum;
  return std::fabs(static_cast<double>(c) - reference) <= tolerance;  // false for NaN
}

// Which elements of C a check visits.
enum class MatmulCoverage {
  all,     // every element (small matrices)
  sample,  // C[0][0], the last row and the last column (where tile-edge bugs show) and 2000
           // elements drawn at random with a fixed seed: cheap enough for any size
};

// The (row, column) pairs a check of an M x N matrix C visits, sorted, each once.
inline std::vector<std::pair<int, int>> matmul_checked_elements(int M, int N, MatmulCoverage coverage) {
  std::vector<std::pair<int, int>> elements;
  if (M <= 0 || N <= 0) return elements;
  if (coverage == MatmulCoverage::all) {
    elements.reserve(static_cast<std::size_t>(M) * N);
    for (int i = 0; i < M; ++i) {
      for (int j = 0; j < N; ++j) elements.emplace_back(i, j);
    }
    return elements;
  }
  constexpr int kRandomElements = 2000;
  elements.emplace_back(0, 0);
  for (int j = 0; j < N; ++j) elements.emplace_back(M - 1, j);
  for (int i = 0; i < M; ++i) elements.emplace_back(i, N - 1);
  cudamatch::Rng rng(0x02C0FFEEull);
  for (int r = 0; r < kRandomElements; ++r) {
    elements.emplace_back(static_cast<int>(rng.below(static_cast<std::uint64_t>(M))),
                          static_cast<int>(rng.below(static_cast<std::uint64_t>(N))));
  }
  std::sort(elements.begin(), elements.end());
  elements.erase(std::unique(elements.begin(), elements.end()), elements.end());
  return elements;
}

// How many of the visited elements of C (M x N, row-major) are wrong for C = A B.
inline std::size_t count_matmul_errors(const float* A, const float* B, const float* C, int M, int K, int N,
                                       MatmulCoverage coverage) {
  std::size_t errors = 0;
  for (const auto& [i, j] : matmul_checked_elements(M, N, coverage)) {
    double abs_sum = 0.0;
    const double reference = reference_element(A, B, K, N, i, j, &abs_sum);
    if (!matmul_element_ok(C[static_cast<std::size_t>(i) * N + j], reference, abs_sum, K)) ++errors;
  }
  return errors;
}
