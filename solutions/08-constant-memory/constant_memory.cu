// Lesson 08 - constant memory: the same small read-only array (a pattern, a table) in constant memory;
// given_placements.cu has the global and shared versions it is measured against, placement_common.cuh
// the helpers of all three.
// SOLUTION.
#include <stdexcept>

#include "common/cuda_check.hpp"
#include "constant_memory.hpp"
#include "placement_common.cuh"

using cudamatch::lesson08::check_pattern_length;
using cudamatch::lesson08::grid_for;
using cudamatch::lesson08::start_count;
using cudamatch::lesson08::start_sum;

namespace {

// ---- The broadcast case ---------------------------------------------------------------------------
// Thread t compares the windows that start at t, t + grid, t + 2 grid, ... The comparison of a window
// stops at its first mismatch, but all threads of a warp start it together at j = 0 and advance j
// together: in every step they all read pattern[j], the same address.

// count_global_kernel and count_shared_kernel: given_placements.cu.

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

// lookup_global_kernel and lookup_shared_kernel: given_placements.cu.

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

}  // namespace

// count_matches_global, count_matches_shared: given_placements.cu.

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

// lookup_sum_global, lookup_sum_shared: given_placements.cu.

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
