// Lesson 12: the two automata of v2, over tables in shared memory. Given.
//
// State q (0 <= q <= m) is the number of pattern bytes matched; q == m means "an occurrence just
// ended" and both automata go on from there as KMP does (from the longest border of the pattern).
//   FailureLoop: KMP's step on the failure table (failure_table.hpp): on a mismatch, fall back along
//                next[] until the byte matches or nothing is left. The number of fallbacks varies
//                from byte to byte, so the threads of a warp wait for the one that falls back most.
//   Dfa:         the full automaton, delta[q][c] for every state and byte: one table lookup a byte,
//                the same work for every thread. (m + 1) rows of 256 bytes: for short patterns.
#pragma once

#include <cstdint>

namespace cudamatch::lesson12 {

constexpr int kDfaMaxLength = 16;  // the longest pattern v2 gives a DFA: 17 rows, 4.4 KB
// A row is 256 bytes plus one word: 65 words, an odd stride, so the rows of different states start
// in different banks and threads in different states reading the same byte value rarely collide.
constexpr int kDfaRowBytes = 256 + 4;

struct FailureLoop {
  const std::uint8_t* pattern;
  const std::int32_t* next;
  int m;
  __device__ int step(int state, std::uint8_t c) const {
    if (state == m) state = next[m];
    while (state > -1 && pattern[state] != c) state = next[state];
    return state + 1;
  }
};

struct Dfa {
  const std::uint8_t* delta;  // (m + 1) rows of kDfaRowBytes
  __device__ int step(int state, std::uint8_t c) const { return delta[state * kDfaRowBytes + c]; }
};

// Fills delta (see Dfa) from the failure table: delta[q][c] is the state after reading c in state q.
// c == p[q] advances to q + 1; otherwise the failure loop would go on from next[q] (-1: back to 0),
// whose row is already known: next[q] < q. Thread c fills column c from q = 0 up, so it only reads
// entries it wrote itself. Every thread of the block must call it; it ends with a __syncthreads().
__device__ inline void build_dfa(const std::uint8_t* s_pattern, const std::int32_t* s_next, int m,
                                 std::uint8_t* s_delta) {
  for (int c = threadIdx.x; c < 256; c += blockDim.x) {
    for (int q = 0; q <= m; ++q) {
      int to = 0;
      if (q < m && s_pattern[q] == c) {
        to = q + 1;
      } else if (s_next[q] > -1) {
        to = s_delta[s_next[q] * kDfaRowBytes + c];
      }
      s_delta[q * kDfaRowBytes + c] = static_cast<std::uint8_t>(to);
    }
  }
  __syncthreads();
}

}  // namespace cudamatch::lesson12
