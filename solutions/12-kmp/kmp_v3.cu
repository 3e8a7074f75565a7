// Lesson 12, v3: a fixed stride per thread, whatever m; the scan goes past it only while an occurrence
// starting in it is still possible.
// SOLUTION.
//
// v2's thread owns a chunk of max(4m, 256) positions and reads m - 1 bytes past it: its serial chain
// grows with m, and a 4 MB text at m = 1024 is 4 blocks of 256 threads, most of the GPU idle. v3:
//   - each thread owns kStride = 68 positions, whatever m (a block of 256 threads, a tile of 17,408);
//     the block stages its tile, and 64 bytes past it, in shared memory (16-byte loads, coalesced:
//     engine/stage_tile.cuh); a thread reads its stride as 17 words, conflict-free (17 is odd);
//   - a thread runs the automaton from state 0 at its first position. Starting there it finds every
//     occurrence that starts there or later, and none before. After its stride it goes on only while
//     the partial match in the state started inside the stride: after byte i - 1 the automaton is in
//     state j, the longest prefix of the pattern ending there, which started at i - j; every
//     occurrence still to come starts at i - j or later. So it stops at the first i >= the stride's
//     end with i - j >= that end. On text that is not repetitive j is small: a few bytes past the
//     stride. The worst case is m - 1 ("aaaa" searched for "aaa...a"), v2's every case, and the
//     thread whose stride holds an occurrence's start scans m - 1 bytes past it. The reference
//     solution adds a shortcut there (not part of the TODO): inside a long partial match it compares
//     32 bytes at once with the pattern, not one step per byte, so that this one thread does not keep
//     a small text's kernel waiting for m dependent steps;
//   - bytes past the staged ones come from global memory (rare: a partial match longer than 64 bytes
//     at the end of the tile);
//   - the automaton is DfaHead (automata.cuh): a DFA for states 0 to 15, the failure loop above, so
//     that nearly every step is one lookup at every m, not only at m <= 16 as in v2; a whole stride is
//     fed a word at a time (take_word): four lookups with no test between them, the word taken again
//     byte by byte only where an occurrence ends in it or a partial match reaches state 16;
//   - count mode loops each block over the tiles (grid-stride, lesson 05): the tables are built once
//     per block, not once per tile. Positions mode takes one tile per block and writes in order, as v1
//     and v2 do (engine/block_pass.cuh).
// The thread's scan is a __host__ __device__ function: scan_threads_on_host runs every thread's on the
// CPU (the tests compare it with the CPU KMP and count the bytes each thread reads).
//
// Shared memory: the tile, the DFA's rows and next[] in 16 bits: 2 bytes a state, 30,100 B at m = 4096,
// seven blocks an SM on sm_90 (the pattern stays in global memory: only the failure loop and long
// partial matches read it). Fallback: when next[] and its construction (2 + 5 bytes a state) do not fit in
// the default 48 KB of shared memory (m > kLongestPattern = 6,872), v1 searches instead.
#include <algorithm>
#include <stdexcept>
#include <vector>

#include "automata.cuh"
#include "engine/block_pass.cuh"
#include "engine/stage_tile.cuh"
#include "engine/warp_tiles.cuh"
#include "failure_table.cuh"
#include "failure_table.hpp"
#include "kmp_gpu.hpp"
#include "kmp_v3.hpp"

namespace cudamatch::lesson12 {

namespace {

constexpr int kThreads = kV3Threads;
constexpr std::size_t kTile = kThreads * kStride;         // positions per block and tile: 17,408
constexpr std::size_t kStaged = kTile + kStagedPastTile;  // bytes staged per tile: a multiple of 16
using BlockTemp = BlockPassTemp<kThreads>;
// At most 32 registers a thread: registers never limit the blocks an SM holds (eight of 256 on sm_90,
// 2,048 threads, when shared memory allows: about 22 KB a block at small m, 24 KB at m = 1024; an
// sm_80 SM's 164 KB hold fewer). The steps of a thread are one dependent chain of shared-memory
// lookups, and more warps hide more of their latency.
constexpr int kMaxRegisters = 32;
// __maxnreg__ came with CUDA 12.4; older compilers get the register count they choose.
#if defined(__CUDACC_VER_MAJOR__) && \
    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 4))
#define KMP_V3_REGISTER_LIMIT __maxnreg__(kMaxRegisters)
#else
#define KMP_V3_REGISTER_LIMIT
#endif
static_assert(kStride % 4 == 0 && kStride / 4 % 2 == 1, "a stride is an odd number of words");
// The room left for lesson 07's block sums (BlockTemp) whatever their size in the track being built:
// the starter's word per thread (1 KB; lessons 13 and 14 allow no more). So both tracks, and every
// student's lesson 07, hand v1 the same patterns: those longer than kLongestPattern.
constexpr std::size_t kBlockSumsRoom = kThreads * sizeof(unsigned);
static_assert(sizeof(BlockTemp) <= kBlockSumsRoom, "lesson 07's block sums take more than a word per thread");

}  // namespace

// The text as scan_stride reads it: the tile's staged bytes (shared memory in the kernel, a copy made
// the same way on the CPU), the rest (what a thread scans past them) from the whole text (global
// memory). Outside the anonymous namespace: the starter does not call it yet, and an unused function
// there is a warning.
struct StagedText {
  const std::uint8_t* __restrict__ global;
  const std::uint8_t* staged;  // bytes [first, first + kStaged) of the text, zeros past n
  std::size_t first;
  // The four bytes from `at`, a multiple of 4 inside the staged bytes, the first one lowest (a
  // little-endian load, as the GPU's and the x86 or Arm host's).
  __host__ __device__ unsigned word(std::size_t at) const { return staged_word(staged, at - first); }
  __host__ __device__ std::uint8_t byte(std::size_t at) const {
    return at - first < kStaged ? staged[at - first] : global[at];
  }
};

// Byte b of a little-endian word (one PRMT on the GPU, where a shift and a mask are two instructions).
// Outside the anonymous namespace for the reason StagedText is.
__host__ __device__ inline std::uint8_t byte_of(unsigned word, unsigned b) {
#ifdef __CUDA_ARCH__
  return static_cast<std::uint8_t>(__byte_perm(word, 0, 0x4440 + b));
#else
  return static_cast<std::uint8_t>(word >> (8 * b));
#endif
}

// The four bytes from any position k of `bytes`, the first one lowest, cut from the two aligned words
// that hold them (on the GPU `bytes` is 4-byte aligned): reads bytes up to (k & ~3) + 7, so the caller
// keeps k + 8 within what it may read.
__host__ __device__ inline unsigned word_from(const std::uint8_t* bytes, std::size_t k) {
  const std::size_t at = k & ~std::size_t{3};
  const unsigned low = staged_word(bytes, at);
  const unsigned high = staged_word(bytes, at + 4);
  const unsigned shift = 8 * static_cast<unsigned>(k & 3);
#ifdef __CUDA_ARCH__
  return __funnelshift_r(low, high, shift);
#else
  return shift == 0 ? low : (low >> shift) | (high << (32 - shift));
#endif
}

// How many of the kRun bytes of `a` from i and of `b` from j agree before the first that differs (kRun
// when all do), a word at a time, every load issued before any test: one memory latency for kRun bytes.
// Reads up to a[i + kRun + 3] and b[j + kRun + 3].
template <int kRun>
__host__ __device__ int agreeing_bytes(const std::uint8_t* a, std::size_t i, const std::uint8_t* b, std::size_t j) {
  static_assert(kRun % 4 == 0, "whole words");
  int agree = kRun;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int w = kRun / 4 - 1; w >= 0; --w) {
    const unsigned differ = word_from(a, i + 4 * w) ^ word_from(b, j + 4 * w);
#ifdef __CUDA_ARCH__
    if (differ != 0) agree = 4 * w + (__ffs(static_cast<int>(differ)) - 1) / 8;
#else
    if (differ != 0) agree = 4 * w + __builtin_ctz(differ) / 8;
#endif
  }
  return agree;
}

namespace {

// One step of a thread's scan: `byte`, the text's byte before `after`, taken in `state`; on_match(the
// position) where an occurrence ends, and on from the pattern's border.
#pragma nv_exec_check_disable
template <class Automaton, class OnMatch>
__host__ __device__ void take_byte(const Automaton& automaton, int m, std::uint8_t byte, std::size_t after, int& state,
                                   OnMatch& on_match) {
  state = automaton.step(state, byte);
  if (state == m) {
    on_match(after - m);
    state = automaton.border();
  }
}

// Four steps: the bytes of `word`, the first lowest, the last of them the byte before `after`. While the
// state stays below the automaton's rows (no occurrence ends and no partial match reaches 16 bytes:
// nearly always), they are four lookups with no test between them (DfaHead::fast_step); a word whose
// steps reach the top is taken again from its first byte, a byte at a time (take_byte). Patterns
// shorter than kWordStepsFrom occur too often for that (m = 2 in E. coli: one position in 16), and
// take a byte at a time throughout.
#pragma nv_exec_check_disable
template <class Automaton, class OnMatch>
__host__ __device__ void take_word(const Automaton& automaton, int m, unsigned word, std::size_t after, int& state,
                                   OnMatch& on_match) {
  constexpr int kWordStepsFrom = 8;
  if (m >= kWordStepsFrom) {
    // From a state at or above the rows the lookups start in the top row and stay there: the test after
    // them sends that word the slow way too, with no test before them.
    int fast = state < automaton.rows ? state : automaton.rows;
    for (unsigned b = 0; b < 4; ++b) fast = automaton.fast_step(fast, byte_of(word, b));
    if (fast < automaton.rows) {
      state = fast;
      return;
    }
  }
  for (unsigned b = 0; b < 4; ++b) take_byte(automaton, m, byte_of(word, b), after - 3 + b, state, on_match);
}

// One thread's scan: the automaton from state 0 at `first` over the stride [first, first + kStride)
// and on while an occurrence starting in the stride is still possible; on_match(position) for each
// occurrence starting in the stride, in order. Returns the position after the last byte scanned
// (`first` when no occurrence can start in the stride). The automaton (DfaHead) steps from states < m
// and gives the state after an occurrence with border(). (The pragma: the CPU's OnMatch is host code,
// the kernel's device code; each instantiation runs on its own side only.)
#pragma nv_exec_check_disable
template <class Text, class Automaton, class OnMatch>
__host__ __device__ std::size_t scan_stride(const Text& text, std::size_t n, int m, const Automaton& automaton,
                                            std::size_t first, OnMatch on_match) {
  // HOLE(12-kmp, v3): the stride, then on while the partial match started inside it.
  if (first + m > n) return first;  // no occurrence can start in this stride
  const std::size_t end = first + kStride;
  const std::size_t stride_bytes = n - first < kStride ? n - first : kStride;
  int state = 0;
  // The stride, a word at a time; a whole stride (every one but the text's last) without a bounds test
  // for each byte; on the GPU the word loop unrolled (no counter, each word's load at a constant offset;
  // the host compiler knows no such pragma).
  if (stride_bytes == kStride) {
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
    for (unsigned w = 0; w < kStride / 4; ++w)
      take_word(automaton, m, text.word(first + 4 * w), first + 4 * w + 4, state, on_match);
  } else {
    for (std::size_t i = first; i < first + stride_bytes; ++i)
      take_byte(automaton, m, text.byte(i), i + 1, state, on_match);
  }
  // Past the stride: the partial match of `state` bytes started at i - state; on while that is
  // inside the stride. While the text agrees with the pattern the automaton only counts up, so a long
  // partial match (the occurrence that starts in this stride, m - 1 bytes of it past the stride's end)
  // is followed kRun bytes at a time, compared a word at a time from the whole text and the pattern
  // (global memory): independent loads, one memory latency instead of kRun.
  constexpr int kRun = 32;
  std::size_t i = first + stride_bytes;
  while (i < n && i - state < end) {
    if (state >= kRun && state + kRun + 4 <= m && i + kRun + 4 <= n) {
      const int agree = agreeing_bytes<kRun>(text.global, i, automaton.pattern, static_cast<std::size_t>(state));
      i += agree;
      state += agree;
      if (agree == kRun) continue;  // else the byte that differs takes the automaton's step below
    }
    take_byte(automaton, m, text.byte(i), i + 1, state, on_match);
    ++i;
  }
  return i;
  // END HOLE
}

// Shared memory: next[m + 1] in 16 bits (DfaHead's), to a multiple of 16 bytes; the tile; after it
// DfaHead's rows and its top row, in the room of the most rows (so that they lie at a fixed offset: a
// lookup's address is the row's and byte's offset plus a constant). next[] is built with 32-bit entries
// (build_failure_table's atomicMin) and a copy of the pattern in the room after it, which the tile and
// the DFA take once it is narrowed.
constexpr std::size_t kDfaRoom = dfa_head_bytes(kDfaHeadRows);
__host__ __device__ constexpr std::size_t round_up(std::size_t bytes, std::size_t unit) {
  return (bytes + unit - 1) / unit * unit;
}
__host__ __device__ constexpr std::size_t next_bytes(std::size_t m) {
  return round_up((m + 1) * sizeof(std::int16_t), sizeof(uint4));
}
// The construction's room: the pattern's copy (to a multiple of 4), then next[] in 32 bits.
__host__ __device__ constexpr std::size_t pattern_copy_bytes(std::size_t m) { return round_up(m, 4); }
constexpr std::size_t construction_bytes(std::size_t m) {
  return pattern_copy_bytes(m) + (m + 1) * sizeof(std::int32_t);
}
constexpr std::size_t shared_bytes(std::size_t m) {
  return next_bytes(m) + std::max(kStaged + kDfaRoom, construction_bytes(m));
}
static_assert(kLongestPattern <= 32767, "next[] has 16-bit entries");

// next[] for DfaHead: build_failure_table's, built in `room` (construction_bytes(m)), narrowed into
// s_next. Every thread of the block must call it; it ends with a __syncthreads(), `room` free again.
__device__ void build_narrow_failure_table(const std::uint8_t* pattern, int m, std::uint8_t* room,
                                           std::int16_t* s_next) {
  auto* wide = reinterpret_cast<std::int32_t*>(room + pattern_copy_bytes(static_cast<std::size_t>(m)));
  build_failure_table(pattern, m, room, wide);
  for (int i = threadIdx.x; i <= m; i += blockDim.x) s_next[i] = static_cast<std::int16_t>(wide[i]);
  __syncthreads();
}

template <Pass kPass>
__global__ void KMP_V3_REGISTER_LIMIT kmp_v3_kernel(const std::uint8_t* __restrict__ text, std::size_t n,
                                                    const std::uint8_t* __restrict__ pattern, std::size_t m,
                                                    unsigned long long* __restrict__ counts,
                                                    const unsigned long long* __restrict__ offsets,
                                                    std::uint64_t* __restrict__ positions) {
  extern __shared__ uint4 shared_vectors[];
  __shared__ BlockTemp temp;
  const int length = static_cast<int>(m);
  auto* s_next = reinterpret_cast<std::int16_t*>(shared_vectors);
  uint4* s_tile = shared_vectors + next_bytes(m) / sizeof(uint4);
  auto* s_text = reinterpret_cast<std::uint8_t*>(s_tile);
  std::uint8_t* s_delta = s_text + kStaged;
  build_narrow_failure_table(pattern, length, s_text, s_next);
  const int rows = dfa_head_rows(length);
  build_dfa_head(pattern, s_next, length, rows, s_delta);
  const DfaHead automaton{s_delta, rows, pattern, s_next, length};

  unsigned found = 0;
  const std::size_t tile_first =
      search_staged_tiles<kPass, kThreads, kTile, kStaged>(text, n, m, s_tile, [&](std::size_t first) {
        with_whole_rows(automaton, [&](const auto& steps) {
          return scan_stride(StagedText{text, s_text, first}, n, length, steps, first + threadIdx.x * kStride,
                             [&](std::size_t) { ++found; });
        });
      });
  // The write pass has one tile per block, still staged.
  finish_block_pass<kPass>(found, temp, counts, offsets, positions, [&](std::uint64_t* out) {
    with_whole_rows(automaton, [&](const auto& steps) {
      return scan_stride(StagedText{text, s_text, tile_first}, n, length, steps, tile_first + threadIdx.x * kStride,
                         [&](std::size_t position) { *out++ = position; });
    });
  });
}

static_assert(shared_bytes(kLongestPattern) + kBlockSumsRoom <= kSharedBytesPerBlock &&
                  shared_bytes(kLongestPattern + 1) + kBlockSumsRoom > kSharedBytesPerBlock,
              "kLongestPattern is the longest pattern whose tables and their construction fit");

bool fits_in_shared_memory(std::size_t m) { return m <= kLongestPattern; }

unsigned tiles(const DeviceText& text, std::size_t m) { return blocks_covering(text, m, kTile); }

void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  const std::size_t m = pattern.size();
  if (!fits_in_shared_memory(m)) return v1.enqueue_count(text, pattern, count, stream);
  const unsigned resident = resident_blocks(kmp_v3_kernel<Pass::count>, kThreads, shared_bytes(m));
  enqueue_count_pass(kmp_v3_kernel<Pass::count>, {std::min(tiles(text, m), resident), kThreads, shared_bytes(m)}, text,
                     pattern, count, stream);
}

std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                        cudaStream_t stream) {
  const std::size_t m = pattern.size();
  if (!fits_in_shared_memory(m)) return v1.positions(text, pattern, positions, stream);
  return positions_in_passes(kmp_v3_kernel<Pass::count_per_block>, kmp_v3_kernel<Pass::write>,
                             {tiles(text, m), kThreads, shared_bytes(m)}, text, pattern, positions, stream);
}

}  // namespace

ThreadScans scan_threads_on_host(ByteView text, ByteView pattern) {
  if (pattern.size > kLongestPattern) throw std::invalid_argument("scan_threads_on_host: m > kLongestPattern");
  const int m = static_cast<int>(pattern.size);
  const std::vector<std::int32_t> wide = failure_table(pattern);
  std::vector<std::int16_t> next(wide.size());  // narrowed as the kernel narrows it
  for (std::size_t i = 0; i < wide.size(); ++i) next[i] = static_cast<std::int16_t>(wide[i]);
  const int rows = dfa_head_rows(m);
  std::vector<std::uint8_t> delta(dfa_head_bytes(m));
  for (int c = 0; c < 256; ++c) fill_dfa_head_column(pattern.data, next.data(), m, rows, c, delta.data());
  const DfaHead automaton{delta.data(), rows, pattern.data, next.data(), m};
  ThreadScans scans;
  if (pattern.size > text.size) return scans;
  // The kernel's tiles, staged as stage_tile does (zeros past n), and their threads in order.
  std::vector<std::uint8_t> staged(kStaged);
  for (std::size_t tile_first = 0; tile_first + pattern.size <= text.size; tile_first += kTile) {
    stage_tile_on_host(text, tile_first, staged);
    const StagedText tile{text.data, staged.data(), tile_first};
    for (std::size_t first = tile_first; first < tile_first + kTile && first + pattern.size <= text.size;
         first += kStride) {
      const std::size_t after = with_whole_rows(automaton, [&](const auto& steps) {
        return scan_stride(tile, text.size, m, steps, first,
                           [&](std::size_t position) { scans.positions.push_back(position); });
      });
      scans.bytes_scanned.push_back(after - first);
    }
  }
  return scans;
}

const GpuVersion v3{"v3", "a fixed stride per thread whatever m, a DFA for the first 16 states", count, positions};

}  // namespace cudamatch::lesson12
