// Lesson 04 - vectorized loads.
// SOLUTION.
#include <algorithm>

#include "common/cuda_check.hpp"
#include "vector_copy.hpp"
#include "vector_plan.hpp"

namespace {

constexpr unsigned kThreads = 256;

// The baseline: one 4-byte load and one 4-byte store per thread.
__global__ void copy_int_kernel(const int* __restrict__ src, int* __restrict__ dst, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

// One V (int2: 8 bytes, int4: 16 bytes) per thread over the aligned middle of the copy; the first
// threads also copy the scalar head and tail, so no vector access is ever misaligned.
template <class V>
__global__ void copy_vector_kernel(const int* __restrict__ src, int* __restrict__ dst, VectorPlan plan) {
  // HOLE(04-vectorized-loads): one vector per thread, scalars at the edges.
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < plan.vectors) {
    // Legal because plan.head made src + head and dst + head multiples of sizeof(V).
    reinterpret_cast<V*>(dst + plan.head)[i] = reinterpret_cast<const V*>(src + plan.head)[i];
  }
  if (i < plan.head) dst[i] = src[i];
  const std::size_t tail_start = plan.head + plan.vectors * (sizeof(V) / sizeof(int));
  if (i < plan.tail) dst[tail_start + i] = src[tail_start + i];
  // END HOLE
}

unsigned blocks_for(std::size_t threads) { return static_cast<unsigned>((threads + kThreads - 1) / kThreads); }

template <class V>
void copy_vectorized(const int* src, int* dst, std::size_t n, cudaStream_t stream) {
  const VectorPlan plan = plan_vector_copy(src, dst, n, sizeof(V));
  const std::size_t threads = std::max({plan.vectors, plan.head, plan.tail});
  if (threads == 0) return;
  copy_vector_kernel<V><<<blocks_for(threads), kThreads, 0, stream>>>(src, dst, plan);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void copy_int(const int* src, int* dst, std::size_t n, cudaStream_t stream) {
  if (n == 0) return;
  copy_int_kernel<<<blocks_for(n), kThreads, 0, stream>>>(src, dst, n);
  CUDA_CHECK_LAUNCH();
}

void copy_int2(const int* src, int* dst, std::size_t n, cudaStream_t stream) {
  copy_vectorized<int2>(src, dst, n, stream);
}

void copy_int4(const int* src, int* dst, std::size_t n, cudaStream_t stream) {
  copy_vectorized<int4>(src, dst, n, stream);
}
