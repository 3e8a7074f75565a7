// Lesson 12: Knuth's failure table (failure_table.hpp) built by a whole block in shared memory, in
// parallel. Given: v1 and v2 call it at the start of their kernels.
//
// The serial construction (failure_table) is a chain of dependent steps, one thread's work. The
// parallel one rests on shifts: for a shift s (1 <= s <= m) let z(s) be the length of the longest
// common prefix of p and p[s, m). A border k of p[0, i) with p[k] != p[i] is a shift s = i - k at
// which that common prefix stops exactly at i: s + z(s) == i. The longest such border is the one of
// the smallest shift, so
//   next[i] = i - min{ s : s + z(s) == i },   or -1 when no shift stops at i.
// For i = m, the shift s = m (z = 0) always stops there, so next[m] >= 0 is the longest border of p.
// Every shift is independent: a thread computes z(s) by comparing bytes, then keeps the smallest
// shift per stop with one shared-memory atomicMin. Work: m shifts / blockDim per thread, each as long
// as its common prefix (short, except for periodic patterns such as "abab...").
#pragma once

#include <cstdint>

namespace cudamatch::lesson12 {

// Every thread of the block must call it. Writes the pattern to s_pattern[0, m) and Knuth's next[]
// to s_next[0, m]; returns after a __syncthreads(), the tables ready.
__device__ inline void build_failure_table(const std::uint8_t* pattern, int m, std::uint8_t* s_pattern,
                                           std::int32_t* s_next) {
  constexpr std::int32_t kNoShift = 0x7fffffff;
  for (int j = threadIdx.x; j < m; j += blockDim.x) s_pattern[j] = pattern[j];
  for (int i = threadIdx.x; i <= m; i += blockDim.x) s_next[i] = kNoShift;  // the smallest shift stopping at i
  __syncthreads();
  for (int s = 1 + threadIdx.x; s <= m; s += blockDim.x) {
    int z = 0;
    while (s + z < m && s_pattern[s + z] == s_pattern[z]) ++z;
    atomicMin(&s_next[s + z], s);
  }
  __syncthreads();
  for (int i = threadIdx.x; i <= m; i += blockDim.x) s_next[i] = s_next[i] == kNoShift ? -1 : i - s_next[i];
  __syncthreads();
}

}  // namespace cudamatch::lesson12
