// Lesson 08 - the given versions: the pattern and the table in global memory and in shared memory,
// the rows your constant-memory versions (constant_memory.cu) are measured against (the rubric's
// broadcast-vs-shared item times count_shared_kernel, its ncu item counts count_global_kernel's
// loads). Not editable: a submission cannot change its baselines.
#include <stdexcept>

#include "common/cuda_check.hpp"
#include "common/device_info.hpp"
#include "constant_memory.hpp"
#include "placement_common.cuh"

namespace cudamatch::lesson08 {

unsigned grid_for(std::size_t items) {
  const int sms = current_device_sm_count();
  const std::size_t full = static_cast<std::size_t>(sms) * kBlocksPerSm;
  const std::size_t needed = (items + kThreads - 1) / kThreads;
  return static_cast<unsigned>(needed < full ? (needed > 0 ? needed : 1) : full);
}

void check_pattern_length(unsigned m) {
  if (m == 0) throw std::invalid_argument("count_matches: empty pattern");
  if (m > kMaxPattern) throw std::invalid_argument("count_matches: pattern longer than kMaxPattern bytes");
}

bool start_count(std::size_t n, unsigned m, unsigned long long* count, cudaStream_t stream) {
  check_pattern_length(m);
  CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned long long), stream));
  return n >= m;
}

bool start_sum(const std::uint8_t* text, std::size_t n, unsigned long long* sum, cudaStream_t stream) {
  if (reinterpret_cast<std::uintptr_t>(text) % 16 != 0) {
    throw std::invalid_argument("lookup_sum: the text must be 16-byte aligned");
  }
  CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(unsigned long long), stream));
  return n > 0;
}

}  // namespace cudamatch::lesson08

using cudamatch::lesson08::grid_for;
using cudamatch::lesson08::start_count;
using cudamatch::lesson08::start_sum;

namespace {

// ---- The broadcast case ---------------------------------------------------------------------------
// Thread t compares the windows that start at t, t + grid, t + 2 grid, ... The comparison of a window
// stops at its first mismatch, but all threads of a warp start it together at j = 0 and advance j
// together: in every step they all read pattern[j], the same address.

__global__ void count_global_kernel(const std::uint8_t* __restrict__ text, std::size_t n,
                                    const std::uint8_t* __restrict__ pattern, unsigned m, unsigned long long* count) {
  unsigned long long found = 0;
  for (std::size_t s = thread_index(); s + m <= n; s += grid_threads()) {
    unsigned j = 0;
    while (j < m && text[s + j] == pattern[j]) ++j;
    found += j == m;
  }
  add_to_total(found, count);
}

__global__ void count_shared_kernel(const std::uint8_t* __restrict__ text, std::size_t n,
                                    const std::uint8_t* __restrict__ pattern, unsigned m, unsigned long long* count) {
  __shared__ std::uint8_t s_pattern[kMaxPattern];
  for (unsigned j = threadIdx.x; j < m; j += blockDim.x) s_pattern[j] = pattern[j];
  __syncthreads();
  unsigned long long found = 0;
  for (std::size_t s = thread_index(); s + m <= n; s += grid_threads()) {
    unsigned j = 0;
    while (j < m && text[s + j] == s_pattern[j]) ++j;
    found += j == m;
  }
  add_to_total(found, count);
}

// ---- The divergent case ---------------------------------------------------------------------------
// Each thread reads 16 bytes at a time and looks each up: the 32 threads of a warp look up 32 bytes
// of the text at once, up to 32 different entries. The last n % 16 bytes go to the first threads.

__global__ void lookup_global_kernel(const std::uint8_t* __restrict__ text, std::size_t n,
                                     const std::uint32_t* __restrict__ table, unsigned long long* sum) {
  const auto* words = reinterpret_cast<const uint4*>(text);
  unsigned long long total = 0;
  for (std::size_t v = thread_index(); v < n / 16; v += grid_threads()) {
    const uint4 w = words[v];
#pragma unroll
    for (unsigned k = 0; k < 16; ++k) total += table[byte_at(w, k)];
  }
  for (std::size_t i = n / 16 * 16 + thread_index(); i < n; i += grid_threads()) total += table[text[i]];
  add_to_total(total, sum);
}

__global__ void lookup_shared_kernel(const std::uint8_t* __restrict__ text, std::size_t n,
                                     const std::uint32_t* __restrict__ table, unsigned long long* sum) {
  __shared__ std::uint32_t s_table[kTableSize];
  for (unsigned e = threadIdx.x; e < kTableSize; e += blockDim.x) s_table[e] = table[e];
  __syncthreads();
  const auto* words = reinterpret_cast<const uint4*>(text);
  unsigned long long total = 0;
  for (std::size_t v = thread_index(); v < n / 16; v += grid_threads()) {
    const uint4 w = words[v];
#pragma unroll
    for (unsigned k = 0; k < 16; ++k) total += s_table[byte_at(w, k)];
  }
  for (std::size_t i = n / 16 * 16 + thread_index(); i < n; i += grid_threads()) total += s_table[text[i]];
  add_to_total(total, sum);
}

}  // namespace

void count_matches_global(const std::uint8_t* text, std::size_t n, const std::uint8_t* pattern, unsigned m,
                          unsigned long long* count, cudaStream_t stream) {
  if (!start_count(n, m, count, stream)) return;
  count_global_kernel<<<grid_for(n - m + 1), kThreads, 0, stream>>>(text, n, pattern, m, count);
  CUDA_CHECK_LAUNCH();
}

void count_matches_shared(const std::uint8_t* text, std::size_t n, const std::uint8_t* pattern, unsigned m,
                          unsigned long long* count, cudaStream_t stream) {
  if (!start_count(n, m, count, stream)) return;
  count_shared_kernel<<<grid_for(n - m + 1), kThreads, 0, stream>>>(text, n, pattern, m, count);
  CUDA_CHECK_LAUNCH();
}

void lookup_sum_global(const std::uint8_t* text, std::size_t n, const std::uint32_t* table, unsigned long long* sum,
                       cudaStream_t stream) {
  if (!start_sum(text, n, sum, stream)) return;
  lookup_global_kernel<<<grid_for(n / 16 + 1), kThreads, 0, stream>>>(text, n, table, sum);
  CUDA_CHECK_LAUNCH();
}

void lookup_sum_shared(const std::uint8_t* text, std::size_t n, const std::uint32_t* table, unsigned long long* sum,
                       cudaStream_t stream) {
  if (!start_sum(text, n, sum, stream)) return;
  lookup_shared_kernel<<<grid_for(n / 16 + 1), kThreads, 0, stream>>>(text, n, table, sum);
  CUDA_CHECK_LAUNCH();
}
