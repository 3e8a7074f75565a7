// Lesson 12: the automata of v2 and v3, over tables in shared memory. Given.
//
// State q (0 <= q <= m) is the number of pattern bytes matched; q == m means "an occurrence just
// ended" and v2's two automata go on from there as KMP does (from the longest border of the pattern).
//   FailureLoop: KMP's step on the failure table (failure_table.hpp): on a mismatch, fall back along
//                next[] until the byte matches or nothing is left. The number of fallbacks varies
//                from byte to byte, so the threads of a warp wait for the one that falls back most.
//   Dfa:         the full automaton, delta[q][c] for every state and byte: one table lookup a byte,
//                the same work for every thread. (m + 1) rows of 256 bytes: for short patterns.
//   DfaHead:     v3's, for every m: the DFA's first rows (states 0 .. kDfaHeadRows - 1) and the failure
//                loop above them. A thread in state q >= 16 has matched 16 pattern bytes, rare in any
//                text but a repetitive one, so nearly every step is one lookup, as with the DFA. Its
//                scan never leaves it in state m: after a match it goes on from next[m] itself. Its
//                next[] has 16-bit entries (2 bytes a state in shared memory, not 4) and it reads the
//                pattern where it lies (global memory on the GPU): the DFA's rows are built from them
//                once; in the scan only the failure loop above the rows reads them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cudamatch::lesson12 {

constexpr int kDfaMaxLength = 16;  // the longest pattern v2 gives a DFA: 17 rows, 4.4 KB
// A row is 256 bytes plus one word: 65 words, an odd stride, so the rows of different states start
// in different banks and threads in different states reading the same byte value rarely collide.
constexpr int kDfaRowBytes = 256 + 4;
constexpr int kDfaHeadRows = 16;  // DfaHead's rows: 4,160 B, whatever m (4,420 B with its top row)

// DfaHead's rows for a pattern of length m: states 0 .. m - 1 when they are fewer.
__host__ __device__ constexpr int dfa_head_rows(int m) { return m < kDfaHeadRows ? m : kDfaHeadRows; }
// DfaHead's table for a pattern of length m, in bytes: its rows and the top row (fill_dfa_head_column).
__host__ __device__ constexpr std::size_t dfa_head_bytes(int m) {
  return static_cast<std::size_t>(dfa_head_rows(m) + 1) * kDfaRowBytes;
}

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

struct DfaHead {
  const std::uint8_t* delta;  // rows + 1 rows of kDfaRowBytes, rows = dfa_head_rows(m) (fill_dfa_head_column)
  int rows;
  const std::uint8_t* pattern;
  const std::int16_t* next;  // m <= 32,767
  int m;
  // 0 <= q < m. The lookup is the whole step nearly always: the failure loop is out of its way, so the
  // common step costs no loop test and no test for the -1 the loop can end at.
  __host__ __device__ int step(int q, std::uint8_t c) const { return q < rows ? fast_step(q, c) : step_above(q, c); }
  // rows <= q < m: KMP's failure loop, down to a state the table has.
  __host__ __device__ int step_above(int q, std::uint8_t c) const {
    do {
      if (pattern[q] == c) return q + 1;
      q = next[q];
    } while (q >= rows);
    return q < 0 ? 0 : fast_step(q, c);
  }
  // The state after an occurrence: the longest proper border of the pattern.
  __host__ __device__ int border() const { return next[m]; }
  // The lookup alone, 0 <= q <= rows: exact below `rows`. The table's row `rows` (fill_dfa_head_column)
  // maps every byte to `rows`, so a run of fast steps that reaches the top state stays there, and one
  // test after the run tells whether each of its steps was exact (v3's take_word).
  __host__ __device__ int fast_step(int q, std::uint8_t c) const { return delta[q * kDfaRowBytes + c]; }
};

// DfaHead when it has a row for every state below m (m <= kDfaHeadRows): a step is one lookup, and the
// scan's loop carries no test for the failure loop.
struct DfaWhole : DfaHead {
  __host__ __device__ int step(int q, std::uint8_t c) const { return fast_step(q, c); }
};

// f(automaton), with DfaWhole where `head` has every row and `head` itself otherwise: the same steps,
// one scan loop compiled for each.
#pragma nv_exec_check_disable
template <class F>
__host__ __device__ auto with_whole_rows(const DfaHead& head, F f) {
  return head.rows == head.m ? f(DfaWhole{head}) : f(head);
}

// Fills column c of rows 0 .. rows - 1 of delta (rows <= m + 1, see Dfa) from the failure table:
// delta[q][c] is the state after reading c in state q. c == p[q] advances to q + 1; otherwise the
// failure loop would go on from next[q] (-1: back to 0), whose row is already known: next[q] < q. The
// column is filled from q = 0 up, so it only reads entries of its own column written before.
template <class Next>  // the failure table's entries: std::int32_t, or DfaHead's std::int16_t
__host__ __device__ void fill_dfa_column(const std::uint8_t* pattern, const Next* next, int m, int rows, int c,
                                         std::uint8_t* delta) {
  for (int q = 0; q < rows; ++q) {
    int to = 0;
    if (q < m && pattern[q] == c) {
      to = q + 1;
    } else if (next[q] > -1) {
      to = delta[next[q] * kDfaRowBytes + c];
    }
    delta[q * kDfaRowBytes + c] = static_cast<std::uint8_t>(to);
  }
}

// DfaHead's table, column c: the DFA's rows 0 .. rows - 1 (fill_dfa_column), then row `rows`, which maps
// every byte to `rows` (DfaHead::fast_step). rows + 1 rows in all.
template <class Next>
__host__ __device__ void fill_dfa_head_column(const std::uint8_t* pattern, const Next* next, int m, int rows, int c,
                                              std::uint8_t* delta) {
  fill_dfa_column(pattern, next, m, rows, c, delta);
  delta[rows * kDfaRowBytes + c] = static_cast<std::uint8_t>(rows);
}

// The rows 0 .. rows - 1 of delta in shared memory, thread c filling column c (m + 1 rows: the full
// DFA). Every thread of the block must call it; it ends with a __syncthreads().
__device__ inline void build_dfa(const std::uint8_t* s_pattern, const std::int32_t* s_next, int m, int rows,
                                 std::uint8_t* s_delta) {
  for (int c = threadIdx.x; c < 256; c += blockDim.x) fill_dfa_column(s_pattern, s_next, m, rows, c, s_delta);
  __syncthreads();
}

// DfaHead's table in shared memory (fill_dfa_head_column), as build_dfa, from the pattern where it lies.
__device__ inline void build_dfa_head(const std::uint8_t* pattern, const std::int16_t* s_next, int m, int rows,
                                      std::uint8_t* s_delta) {
  for (int c = threadIdx.x; c < 256; c += blockDim.x) fill_dfa_head_column(pattern, s_next, m, rows, c, s_delta);
  __syncthreads();
}

}  // namespace cudamatch::lesson12
