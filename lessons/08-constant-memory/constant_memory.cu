// Lesson 08 - constant memory: the same small read-only array (a pattern, a table) in constant memory;
// given_placements.cu has the global and shared versions it is measured against, placement_common.cuh
// the helpers of all three.
// STARTER: complete the TODOs (steps 1 and 2).
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

// TODO(08-constant-memory, step 1): declare the pattern in constant memory.
//   Declare an array of kMaxPattern bytes (std::uint8_t) in constant memory, at namespace scope, e.g.
//   c_pattern: the __constant__ qualifier puts it in the 64 KiB constant bank of the module. The host
//   cannot write it through a pointer: set_constant_pattern (below) copies to it by its symbol.

__global__ void count_constant_kernel(const std::uint8_t* __restrict__ text, std::size_t n, unsigned m,
                                      unsigned long long* count) {
  // TODO(08-constant-memory, step 1): count the matching windows, reading the pattern from constant memory.
  //   The body of count_global_kernel (given_placements.cu), with pattern[j] read from your constant array instead of a
  //   pointer (this kernel has none): a grid-stride loop over the window starts s (s + m <= n), the
  //   comparison j = 0, 1, ... while j < m and text[s + j] matches, found += (j == m), and at the end
  //   add_to_total(found, count), which every thread must reach. All threads of a warp start each
  //   comparison at j = 0 and advance j together: they read the same constant address (a broadcast).
}

// ---- The divergent case ---------------------------------------------------------------------------
// Each thread reads 16 bytes at a time and looks each up: the 32 threads of a warp look up 32 bytes
// of the text at once, up to 32 different entries. The last n % 16 bytes go to the first threads.

// lookup_global_kernel and lookup_shared_kernel: given_placements.cu.

// TODO(08-constant-memory, step 2): declare the table in constant memory.
//   Declare an array of kTableSize std::uint32_t in constant memory, e.g. c_table.

__global__ void lookup_constant_kernel(const std::uint8_t* __restrict__ text, std::size_t n, unsigned long long* sum) {
  // TODO(08-constant-memory, step 2): sum the table entries of every byte, reading the table from constant memory.
  //   The body of lookup_global_kernel (given_placements.cu) with table[...] replaced by your constant array: 16-byte
  //   words in a grid-stride loop, byte_at(w, k) for k = 0..15, then the last n % 16 bytes one by one,
  //   then add_to_total(total, sum). Here the threads of a warp read up to 32 different entries at once.
}

}  // namespace

// count_matches_global, count_matches_shared: given_placements.cu.

void set_constant_pattern(const std::uint8_t* host_pattern, unsigned m) {
  check_pattern_length(m);
  if (host_pattern == nullptr) throw std::invalid_argument("set_constant_pattern: no pattern");
  // TODO(08-constant-memory, step 1): copy the pattern to constant memory.
  //   cudaMemcpyToSymbol(<your array>, host_pattern, m), wrapped in CUDA_CHECK.
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
  // TODO(08-constant-memory, step 2): copy the table to constant memory.
  //   cudaMemcpyToSymbol(<your array>, host_table, kTableSize * sizeof(std::uint32_t)), in CUDA_CHECK.
}

void lookup_sum_constant(const std::uint8_t* text, std::size_t n, unsigned long long* sum, cudaStream_t stream) {
  if (!start_sum(text, n, sum, stream)) return;
  lookup_constant_kernel<<<grid_for(n / 16 + 1), kThreads, 0, stream>>>(text, n, sum);
  CUDA_CHECK_LAUNCH();
}
