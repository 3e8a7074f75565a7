// Microbenchmark (not part of the course): how many global atomicAdd a second the GPU sustains on P
// distinct 64-bit counters at random indices, as lesson 18's count pass does once per occurrence.
// Build and run by hand: nvcc -O3 -arch=sm_90 -o atomics tools/gpu/atomics_throughput.cu && ./atomics
// (best of four timed launches after one warm-up: an upper bound, the best case for the atomics).
#include <cstdio>
#include <cuda_runtime.h>

__global__ void hammer(unsigned long long* counts, unsigned patterns, unsigned per_thread, unsigned seed) {
  unsigned x = (blockIdx.x * blockDim.x + threadIdx.x) * 2654435761u ^ seed;
  for (unsigned k = 0; k < per_thread; ++k) {
    x ^= x << 13, x ^= x >> 17, x ^= x << 5;
    atomicAdd(&counts[x % patterns], 1ull);
  }
}

int main() {
  unsigned long long* counts = nullptr;
  cudaMalloc(&counts, sizeof(unsigned long long) << 20);
  cudaEvent_t a, b;
  cudaEventCreate(&a), cudaEventCreate(&b);
  const unsigned blocks = 132 * 16, threads = 256, per_thread = 256;
  for (unsigned patterns : {1000u, 10000u, 100000u, 1000000u}) {
    float best = 1e30f;
    for (int rep = 0; rep < 5; ++rep) {
      cudaMemset(counts, 0, sizeof(unsigned long long) << 20);
      cudaEventRecord(a);
      hammer<<<blocks, threads>>>(counts, patterns, per_thread, 77u + rep);
      cudaEventRecord(b);
      cudaEventSynchronize(b);
      float ms = 0;
      cudaEventElapsedTime(&ms, a, b);
      if (rep > 0 && ms < best) best = ms;
    }
    const double ops = double(blocks) * threads * per_thread;
    std::printf("patterns %7u: %.3f ms, %.1f G atomics/s\n", patterns, best, ops / best / 1e6);
  }
  std::printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
