// Lesson 08 - constant memory: the same small read-only array (a pattern, a table) in global, shared
// and constant memory.
// SOLUTION.
#include <stdexcept>

#include "common/cuda_check.hpp"
#include "constant_memory.hpp"

namespace {

constexpr unsigned kThreads = 256;
constexpr unsigned kBlocksPerSm = 8;  // 2048 threads: a full sm_80/sm_90 multiprocessor (lesson 05)

// A grid-stride grid for `items` units of work: enough blocks to fill the GPU, no more than the work.
unsigned grid_for(std::size_t items) {
  int device = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  const std::size_t full = static_cast<std::size_t>(sms) * kBlocksPerSm;
  const std::size_t needed = (items + kThreads - 1) / kThreads;
  return static_cast<unsigned>(needed < full ? (needed > 0 ? needed : 1) : full);
}

// Adds this thread's `value` to *total with one atomic per warp. Every thread of the block must call it
// (the warp's lanes exchange their values first).
__device__ void add_to_total(unsigned long long value, unsigned long long* total) {
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
  if (threadIdx.x % 32 == 0 && value != 0) atomicAdd(total, value);
}

// Byte k (0..15) of a 16-byte word, in memory order (little-endian words).
__device__ __forceinline__ unsigned byte_at(const uint4& w, unsigned k) {
  const unsigned word = k < 4 ? w.x : k < 8 ? w.y : k < 12 ? w.z : w.w;
  return (word >> (8 * (k % 4))) & 0xffu;
}

__device__ __forceinline__ std::size_t thread_index() {
  return static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ __forceinline__ std::size_t grid_threads() { return static_cast<std::size_t>(blockDim.x) * gridDim.x; }

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

// HOLE(08-constant-memory, step 1): declare the pattern in constant memory.
// The pattern, written by set_constant_pattern: 1 KiB of the 64 KiB of constant memory, cached in the
// constant cache of each SM. A warp whose threads all read one address gets it in one pass (a broadcast).
__constant__ std::uint8_t c_pattern[kMaxPattern];
// END HOLE

__global__ void count_constant_kernel(const std::uint8_t* __restrict__ text, std::size_t n, unsigned m,
                                      unsigned long long* count) {
  // HOLE(08-constant-memory, step 1): count the matching windows, reading the pattern from constant memory.
  unsigned long long found = 0;
  for (std::size_t s = thread_index(); s + m <= n; s += grid_threads()) {
    unsigned j = 0;
    while (j < m && text[s + j] == c_pattern[j]) ++j;
    found += j == m;
  }
  add_to_total(found, count);
  // END HOLE
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

// HOLE(08-constant-memory, step 2): declare the table in constant memory.
// The table, written by set_constant_table: 1 KiB of constant memory. Lookups by text bytes are the
// divergent case: the constant cache serves a warp one distinct address per pass.
__constant__ std::uint32_t c_table[kTableSize];
// END HOLE

__global__ void lookup_constant_kernel(const std::uint8_t* __restrict__ text, std::size_t n, unsigned long long* sum) {
  // HOLE(08-constant-memory, step 2): sum the table entries of every byte, reading the table from constant memory.
  const auto* words = reinterpret_cast<const uint4*>(text);
  unsigned long long total = 0;
  for (std::size_t v = thread_index(); v < n / 16; v += grid_threads()) {
    const uint4 w = words[v];
#pragma unroll
    for (unsigned k = 0; k < 16; ++k) total += c_table[byte_at(w, k)];
  }
  for (std::size_t i = n / 16 * 16 + thread_index(); i < n; i += grid_threads()) total += c_table[text[i]];
  add_to_total(total, sum);
  // END HOLE
}

void check_pattern_length(unsigned m) {
  if (m == 0) throw std::invalid_argument("count_matches: empty pattern");
  if (m > kMaxPattern) throw std::invalid_argument("count_matches: pattern longer than kMaxPattern bytes");
}

// Zeroes *count; true when there is a window to compare (n >= m).
bool start_count(std::size_t n, unsigned m, unsigned long long* count, cudaStream_t stream) {
  check_pattern_length(m);
  CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(unsigned long long), stream));
  return n >= m;
}

// Zeroes *sum; true when there is a byte to look up.
bool start_sum(const std::uint8_t* text, std::size_t n, unsigned long long* sum, cudaStream_t stream) {
  if (reinterpret_cast<std::uintptr_t>(text) % 16 != 0) {
    throw std::invalid_argument("lookup_sum: the text must be 16-byte aligned");
  }
  CUDA_CHECK(cudaMemsetAsync(sum, 0, sizeof(unsigned long long), stream));
  return n > 0;
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

void set_constant_pattern(const std::uint8_t* host_pattern, unsigned m) {
  check_pattern_length(m);
  if (host_pattern == nullptr) throw std::invalid_argument("set_constant_pattern: no pattern");
  // HOLE(08-constant-memory, step 1): copy the pattern to constant memory.
  CUDA_CHECK(cudaMemcpyToSymbol(c_pattern, host_pattern, m));
  // END HOLE
}

void count_matches_constant(const std::uint8_t* text, std::size_t n, unsigned m, unsigned long long* count,
                            cudaStream_t stream) {
  if (!start_count(n, m, count, stream)) return;
  count_constant_kernel<<<grid_for(n - m + 1), kThreads, 0, stream>>>(text, n, m, count);
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

void set_constant_table(const std::uint32_t* host_table) {
  if (host_table == nullptr) throw std::invalid_argument("set_constant_table: no table");
  // HOLE(08-constant-memory, step 2): copy the table to constant memory.
  CUDA_CHECK(cudaMemcpyToSymbol(c_table, host_table, kTableSize * sizeof(std::uint32_t)));
  // END HOLE
}

void lookup_sum_constant(const std::uint8_t* text, std::size_t n, unsigned long long* sum, cudaStream_t stream) {
  if (!start_sum(text, n, sum, stream)) return;
  lookup_constant_kernel<<<grid_for(n / 16 + 1), kThreads, 0, stream>>>(text, n, sum);
  CUDA_CHECK_LAUNCH();
}
