// Lesson 12, v2: the text staged in shared memory and read without bank conflicts; a full DFA for
// short patterns.
// SOLUTION.
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

// HOLE(12-kmp, v2): helpers for scan_chunk, if you want any, go here.
// Round `round`: bytes [round * kSegment, + kSegment) of every thread's span into its row. Lane v
// loads vector v % 8 of row v / 8: eight lanes cover one row's 128 contiguous bytes.
__device__ void stage_round(const std::uint8_t* __restrict__ text, std::size_t n, std::size_t block_first,
                            std::size_t chunk, std::size_t span, int round, unsigned* rows) {
  constexpr int kVectorsPerRow = kSegment / 16;
#pragma unroll
  for (int k = 0; k < kVectorsPerRow; ++k) {
    const int v = k * kThreads + static_cast<int>(threadIdx.x);
    const int row = v / kVectorsPerRow;
    const int part = v % kVectorsPerRow;
    const std::size_t offset = static_cast<std::size_t>(round) * kSegment + 16 * part;  // in the row's span
    const std::size_t source = block_first + row * chunk + offset;
    // Bytes past the span or the text are never scanned; DeviceText's padding makes every vector
    // that starts before n readable. (Chunks are multiples of 128: every vector is aligned.)
    if (offset < span && source < n) {
      const uint4 bytes = *reinterpret_cast<const uint4*>(text + source);
      unsigned* to = rows + row * kRowWords + 4 * part;  // 4-byte stores: rows are not 16-byte aligned
      to[0] = bytes.x;
      to[1] = bytes.y;
      to[2] = bytes.z;
      to[3] = bytes.w;
    }
  }
}
// END HOLE

// Runs `automaton` over this thread's span, round by round, and calls on_match(position) for every
// occurrence starting in its chunk, in order. Every thread of the block must call it (it stages the
// rows together).
template <class Automaton, class OnMatch>
__device__ void scan_chunk(const std::uint8_t* __restrict__ text, std::size_t n, int m, const Automaton& automaton,
                           unsigned* rows, OnMatch on_match) {
  // HOLE(12-kmp, v2): stage the text in rounds, read it from shared memory without bank conflicts.
  const std::size_t chunk = chunk_length(m);
  const std::size_t span = chunk + m - 1;
  const std::size_t block_first = static_cast<std::size_t>(blockIdx.x) * kThreads * chunk;
  const std::size_t first = block_first + threadIdx.x * chunk;
  // Bytes this thread scans: none when no occurrence can start in its chunk, none past the text.
  const std::size_t bytes = first + m > n ? 0 : min(span, n - first);
  const unsigned* row = rows + threadIdx.x * kRowWords;
  const auto rounds = static_cast<int>((span + kSegment - 1) / kSegment);
  int state = 0;
  for (int round = 0; round < rounds; ++round) {
    __syncthreads();  // every thread is done with the previous round's rows
    stage_round(text, n, block_first, chunk, span, round, rows);
    __syncthreads();
    const std::size_t round_first = static_cast<std::size_t>(round) * kSegment;  // in the span
    const int round_bytes = bytes > round_first ? static_cast<int>(min(bytes - round_first, std::size_t{kSegment})) : 0;
    for (int w = 0; 4 * w < round_bytes; ++w) {
      const unsigned word = row[w];  // bank (threadIdx.x + w) % 32: a different bank for every lane
#pragma unroll
      for (int b = 0; b < 4; ++b) {
        if (4 * w + b < round_bytes) {
          state = automaton.step(state, static_cast<std::uint8_t>(word >> (8 * b)));
          if (state == m) on_match(first + round_first + 4 * w + b + 1 - m);
        }
      }
    }
  }
  // END HOLE
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
