// Lesson 12, v2: the text staged in shared memory and read without bank conflicts; a full DFA for
// short patterns.
// STARTER: complete the TODO in scan_chunk (write any helper it needs at the TODO above it).
//
// What v1 leaves as it was: the text loads. A thread reads its chunk one byte per load instruction,
// and the 32 threads of a warp read 32 chunks at least 256 bytes apart: every load touches 32
// different 128-byte lines, 32 sectors for 32 useful bytes, and L1 serves them one line after another
// (lesson 01). v2 stages the text through shared memory:
//   - a thread's span is its chunk and the m - 1 bytes after it. In round r the block copies bytes
//     [128 r, 128 r + 128) of every thread's span into that thread's row of a shared array: eight
//     consecutive lanes load one row's 128 bytes as eight uint4, so each load instruction of a warp
//     covers four whole 128-byte lines (coalesced, 16 bytes per lane: lessons 01 and 04);
//   - rows are kRowWords = 33 words apart, an odd stride: when the 32 threads of a warp read word w of
//     their rows they hit 32 different banks (lesson 03's padded tile), and one 4-byte shared load
//     feeds four steps of the automaton;
//   - each thread keeps its automaton's state in a register from one round to the next.
//
// The automaton (automata.cuh). Patterns of up to kDfaMaxLength (16) bytes use the full DFA,
// delta[state][byte], built by each block from the failure table: a step is one table lookup, with no
// failure loop in which some threads of a warp fall back along next[] while the others wait. Longer
// patterns keep v1's failure loop, on the shared tables.
//
// Chunks: max(4m, 256) positions rounded up to a multiple of 128 (whole rounds). Fallback: when the
// tables do not fit beside the 33 KB of rows in the default 48 KB of shared memory (m > 3,058), v1
// searches instead (its table alone fits up to m = 9,816, then v0).
#include "automata.cuh"
#include "engine/block_pass.cuh"
#include "failure_table.cuh"
#include "kmp_gpu.hpp"

namespace cudamatch::lesson12 {

namespace {

constexpr int kThreads = 256;
constexpr int kSegment = 128;                // bytes of each thread's span staged per round
constexpr int kRowWords = kSegment / 4 + 1;  // 33: odd, so consecutive rows start in consecutive banks
constexpr std::size_t kRowsBytes = sizeof(unsigned) * kRowWords * kThreads;
using BlockTemp = BlockPassTemp<kThreads>;

// Positions per thread: 4m (the m - 1 extra bytes cost at most 25%), at least 256, whole rounds.
__host__ __device__ std::size_t chunk_length(std::size_t m) {
  const std::size_t wanted = 4 * m > 256 ? 4 * m : 256;
  return (wanted + kSegment - 1) / kSegment * kSegment;
}

bool uses_dfa(std::size_t m) { return m <= kDfaMaxLength; }

// After the rows: next[m + 1] (int32), the pattern (padded to whole words), the DFA when there is one.
std::size_t table_bytes(std::size_t m) {
  const std::size_t failure = (m + 1) * sizeof(std::int32_t) + (m + 3) / 4 * 4;
  return failure + (uses_dfa(m) ? (m + 1) * kDfaRowBytes : 0);
}

// TODO(12-kmp, v2): helpers for scan_chunk, if you want any, go here.

// Runs `automaton` over this thread's span, round by round, and calls on_match(position) for every
// occurrence starting in its chunk, in order. Every thread of the block must call it (it stages the
// rows together).
template <class Automaton, class OnMatch>
__device__ void scan_chunk(const std::uint8_t* __restrict__ text, std::size_t n, int m, const Automaton& automaton,
                           unsigned* rows, OnMatch on_match) {
  // TODO(12-kmp, v2): stage the text in rounds, read it from shared memory without bank conflicts.
  //   Thread t of block b owns the chunk of chunk_length(m) positions starting at
  //   first = block_first + t * chunk, block_first = b * kThreads * chunk; its span is the
  //   span = chunk + m - 1 bytes from `first` (the automaton's input), and it scans
  //   bytes = (first + m > n) ? 0 : min(span, n - first) of them (none past the text).
  //   Thread t's row is rows[t * kRowWords, t * kRowWords + kSegment / 4): kRowWords = 33 words apart.
  //   state = 0; then for each round r = 0 .. ceil(span / kSegment) - 1:
  //   1. __syncthreads() (everyone is done with the previous round), then stage bytes
  //      [r * kSegment, (r + 1) * kSegment) of EVERY thread's span into its row, coalesced: for
  //      k = 0 .. kSegment / 16 - 1, v = k * kThreads + threadIdx.x loads vector part = v % 8 of
  //      row = v / 8, the uint4 at text + block_first + row * chunk + r * kSegment + 16 * part (so
  //      eight lanes read one row's 128 contiguous bytes), and stores its four words at
  //      rows[row * kRowWords + 4 * part + 0..3] (4-byte stores: rows are not 16-byte aligned). Skip
  //      vectors at span offsets >= span or starting at text offsets >= n: nobody reads them, and
  //      every vector that starts before n lies inside DeviceText's padded allocation.
  //      Then __syncthreads().
  //   2. Scan this round's bytes of your own row: round_bytes = min(kSegment, bytes - r * kSegment)
  //      (0 when bytes <= r * kSegment). For each word w while 4 * w < round_bytes, load row[w] once
  //      (bank (t + w) % 32: conflict-free) and feed its bytes b = 0..3, lowest first, while
  //      4 * w + b < round_bytes: state = automaton.step(state, byte); when state == m, call
  //      on_match(first + r * kSegment + 4 * w + b + 1 - m).
  //   Keep `state` in a register across rounds. Every thread runs every round (the barriers),
  //   also those with nothing to scan.
}

template <Pass kPass, class Automaton>
__device__ void search_block(const Automaton& automaton, const std::uint8_t* __restrict__ text, std::size_t n, int m,
                             unsigned* rows, unsigned long long* __restrict__ counts,
                             const unsigned long long* __restrict__ offsets, std::uint64_t* __restrict__ positions) {
  unsigned found = 0;
  scan_chunk(text, n, m, automaton, rows, [&](std::size_t) { ++found; });

  __shared__ BlockTemp temp;
  if constexpr (kPass == Pass::write) {
    std::uint64_t* out = thread_output(found, temp, offsets, positions);
    // Every thread scans again, also those without matches: the rounds are staged together.
    scan_chunk(text, n, m, automaton, rows, [&](std::size_t position) { *out++ = position; });
  } else {
    add_block_total<kPass>(found, temp, counts);
  }
}

template <Pass kPass, bool kDfa>
__global__ void kmp_v2_kernel(const std::uint8_t* __restrict__ text, std::size_t n,
                              const std::uint8_t* __restrict__ pattern, std::size_t m,
                              unsigned long long* __restrict__ counts, const unsigned long long* __restrict__ offsets,
                              std::uint64_t* __restrict__ positions) {
  extern __shared__ unsigned shared_words[];
  const int length = static_cast<int>(m);
  unsigned* rows = shared_words;
  auto* s_next = reinterpret_cast<std::int32_t*>(shared_words + kThreads * kRowWords);
  auto* s_pattern = reinterpret_cast<std::uint8_t*>(s_next + length + 1);
  build_failure_table(pattern, length, s_pattern, s_next);
  if constexpr (kDfa) {
    std::uint8_t* s_delta = s_pattern + (length + 3) / 4 * 4;
    build_dfa(s_pattern, s_next, length, length + 1, s_delta);
    search_block<kPass>(Dfa{s_delta}, text, n, length, rows, counts, offsets, positions);
  } else {
    search_block<kPass>(FailureLoop{s_pattern, s_next, length}, text, n, length, rows, counts, offsets, positions);
  }
}

template <Pass kPass>
SearchKernel kernel_for(std::size_t m) {
  return uses_dfa(m) ? kmp_v2_kernel<kPass, true> : kmp_v2_kernel<kPass, false>;
}

Launch plan(const DeviceText& text, std::size_t m) {
  return {blocks_covering(text, m, kThreads * chunk_length(m)), kThreads, kRowsBytes + table_bytes(m)};
}

bool fits_in_shared_memory(std::size_t m) {
  return kRowsBytes + table_bytes(m) + sizeof(BlockTemp) <= kSharedBytesPerBlock;
}

void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  if (!fits_in_shared_memory(pattern.size())) return v1.enqueue_count(text, pattern, count, stream);
  enqueue_count_pass(kernel_for<Pass::count>(pattern.size()), plan(text, pattern.size()), text, pattern, count, stream);
}

std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                        cudaStream_t stream) {
  if (!fits_in_shared_memory(pattern.size())) return v1.positions(text, pattern, positions, stream);
  return positions_in_passes(kernel_for<Pass::count_per_block>(pattern.size()), kernel_for<Pass::write>(pattern.size()),
                             plan(text, pattern.size()), text, pattern, positions, stream);
}

}  // namespace

const GpuVersion v2{"v2", "text staged in shared memory without bank conflicts, a DFA for m <= 16", count, positions};

}  // namespace cudamatch::lesson12
