// Lesson 07 - reductions and histograms: the sum of a large array three ways, and the byte histogram
// with block-privatized shared-memory atomics (the one with global atomics, its baseline, is given in
// histogram_given.cu); and the small kernels through which the tests call block_sums.cuh.
// SOLUTION.
#include <cstdint>
#include <stdexcept>

#include "block_sums.cuh"
#include "common/cuda_check.hpp"
#include "launch_shape.cuh"
#include "reductions.hpp"

namespace cudamatch::lesson07 {

namespace {

// This thread's share of in[0 .. n - 1] in a grid-stride loop, 16 bytes per load and kUnroll loads in
// flight before any is used; the last n % 4 elements go to the first threads.
__device__ unsigned thread_sum(const unsigned* __restrict__ in, std::size_t n) {
  const uint4* vectors = reinterpret_cast<const uint4*>(in);
  const std::size_t count = n / 4;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned sum = 0;
  for (std::size_t base = first; base < count; base += kUnroll * stride) {
    uint4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::size_t i = base + u * stride;
      v[u] = i < count ? vectors[i] : make_uint4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) sum += v[u].x + v[u].y + v[u].z + v[u].w;
  }
  if (4 * count + first < n) sum += in[4 * count + first];
  return sum;
}

// The tree: halve the active threads at every step, one barrier per step (log2(256) = 8).
__global__ void reduce_tree_kernel(const unsigned* __restrict__ in, std::size_t n, unsigned* __restrict__ partials) {
  __shared__ unsigned sums[kThreads];
  sums[threadIdx.x] = thread_sum(in, n);
  __syncthreads();
  for (int half = kThreads / 2; half > 0; half /= 2) {
    if (threadIdx.x < half) sums[threadIdx.x] += sums[threadIdx.x + half];
    __syncthreads();
  }
  if (threadIdx.x == 0) partials[blockIdx.x] = sums[0];
}

__global__ void reduce_shuffle_kernel(const unsigned* __restrict__ in, std::size_t n, unsigned* __restrict__ partials) {
  __shared__ BlockSumsTemp<kThreads> temp;
  const unsigned total = block_reduce_sum(thread_sum(in, n), temp);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

__global__ void reduce_atomic_kernel(const unsigned* __restrict__ in, std::size_t n, unsigned* __restrict__ sum) {
  // HOLE(07-reductions, step 4): one launch, one global atomic per block.
  __shared__ BlockSumsTemp<kThreads> temp;
  const unsigned total = block_reduce_sum(thread_sum(in, n), temp);
  if (threadIdx.x == 0) atomicAdd(sum, total);
  // END HOLE
}

// The global-atomic histogram (given, the baseline) and histogram_bytes are in histogram_given.cu;
// for_each_byte is in launch_shape.cuh.
__global__ void histogram_private_kernel(const std::uint8_t* __restrict__ bytes, std::size_t n,
                                         unsigned* __restrict__ bins) {
  // HOLE(07-reductions, step 5): the block's own 256 counters in shared memory.
  __shared__ unsigned block_bins[256];
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) block_bins[b] = 0;
  __syncthreads();
  for_each_byte(bytes, n, [&](unsigned b) { atomicAdd(&block_bins[b], 1u); });
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 256; b += blockDim.x) {
    if (block_bins[b] > 0) atomicAdd(&bins[b], block_bins[b]);  // at most 256 global atomics per block
  }
  // END HOLE
}

// ---- the tests' view of block_sums.cuh ----

__global__ void warp_inclusive_sums_kernel(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const unsigned sum = warp_inclusive_sum(i < n ? in[i] : 0u);
  if (i < n) out[i] = sum;
}

template <int kBlock>
__global__ void block_reduce_sums_kernel(const unsigned* __restrict__ in, unsigned* __restrict__ totals,
                                         std::size_t n) {
  __shared__ BlockSumsTemp<kBlock> temp;
  __shared__ unsigned first_total;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kBlock + threadIdx.x;
  const unsigned total = block_reduce_sum(i < n ? in[i] : 0u, temp);
  if (threadIdx.x == 0) first_total = total;
  __syncthreads();
  const bool all_same = __syncthreads_and(total == first_total);
  if (threadIdx.x == kBlock - 1) totals[blockIdx.x] = all_same ? total : ~total;
}

template <int kBlock>
__global__ void block_exclusive_sums_kernel(const unsigned* __restrict__ in, unsigned* __restrict__ out,
                                            unsigned* __restrict__ again, unsigned* __restrict__ totals,
                                            std::size_t n) {
  __shared__ BlockSumsTemp<kBlock> temp;
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * kBlock + threadIdx.x;
  const unsigned value = i < n ? in[i] : 0u;
  unsigned total = 0, total_again = 0;
  const unsigned prefix = block_exclusive_sum(value, temp, total);
  const unsigned prefix_again = block_exclusive_sum(value * 3u + 1u, temp, total_again);  // temp reused at once
  if (i < n) {
    out[i] = prefix;
    again[i] = prefix_again;
  }
  if (threadIdx.x == kBlock - 1) totals[blockIdx.x] = total;
}

unsigned blocks_for(std::size_t n, int threads) { return static_cast<unsigned>((n + threads - 1) / threads); }

}  // namespace

std::size_t reduce_scratch_elements() { return grid_blocks(); }

void reduce_sum(ReduceVersion version, const unsigned* in, std::size_t n, unsigned* sum, unsigned* scratch,
                cudaStream_t stream) {
  require_aligned(in, "the input");
  const unsigned blocks = grid_blocks();
  switch (version) {
    case ReduceVersion::tree:
      reduce_tree_kernel<<<blocks, kThreads, 0, stream>>>(in, n, scratch);
      CUDA_CHECK_LAUNCH();
      reduce_tree_kernel<<<1, kThreads, 0, stream>>>(scratch, blocks, sum);
      break;
    case ReduceVersion::shuffle:
      reduce_shuffle_kernel<<<blocks, kThreads, 0, stream>>>(in, n, scratch);
      CUDA_CHECK_LAUNCH();
      reduce_shuffle_kernel<<<1, kThreads, 0, stream>>>(scratch, blocks, sum);
      break;
    case ReduceVersion::atomic:
      CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(unsigned), stream));
      reduce_atomic_kernel<<<blocks, kThreads, 0, stream>>>(in, n, sum);
      break;
  }
  CUDA_CHECK_LAUNCH();
}

void launch_histogram_private(const std::uint8_t* bytes, std::size_t n, unsigned* bins, cudaStream_t stream) {
  histogram_private_kernel<<<grid_blocks(), kThreads, 0, stream>>>(bytes, n, bins);
  CUDA_CHECK_LAUNCH();
}

void warp_inclusive_sums(const unsigned* in, unsigned* out, std::size_t n) {
  if (n == 0) return;
  warp_inclusive_sums_kernel<<<blocks_for(n, kThreads), kThreads>>>(in, out, n);
  CUDA_CHECK_LAUNCH();
}

void block_reduce_sums(const unsigned* in, unsigned* totals, std::size_t n, int threads) {
  if (n == 0) return;
  switch (threads) {
    case 32:
      block_reduce_sums_kernel<32><<<blocks_for(n, 32), 32>>>(in, totals, n);
      break;
    case 160:
      block_reduce_sums_kernel<160><<<blocks_for(n, 160), 160>>>(in, totals, n);
      break;
    case 256:
      block_reduce_sums_kernel<256><<<blocks_for(n, 256), 256>>>(in, totals, n);
      break;
    case 1024:
      block_reduce_sums_kernel<1024><<<blocks_for(n, 1024), 1024>>>(in, totals, n);
      break;
    default:
      throw std::invalid_argument("block_reduce_sums: blocks of 32, 160, 256 or 1024 threads");
  }
  CUDA_CHECK_LAUNCH();
}

void block_exclusive_sums(const unsigned* in, unsigned* out, unsigned* again, unsigned* totals, std::size_t n,
                          int threads) {
  if (n == 0) return;
  switch (threads) {
    case 32:
      block_exclusive_sums_kernel<32><<<blocks_for(n, 32), 32>>>(in, out, again, totals, n);
      break;
    case 160:
      block_exclusive_sums_kernel<160><<<blocks_for(n, 160), 160>>>(in, out, again, totals, n);
      break;
    case 256:
      block_exclusive_sums_kernel<256><<<blocks_for(n, 256), 256>>>(in, out, again, totals, n);
      break;
    case 1024:
      block_exclusive_sums_kernel<1024><<<blocks_for(n, 1024), 1024>>>(in, out, again, totals, n);
      break;
    default:
      throw std::invalid_argument("block_exclusive_sums: blocks of 32, 160, 256 or 1024 threads");
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace cudamatch::lesson07
