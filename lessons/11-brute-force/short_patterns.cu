// Lesson 11 - the short-pattern path (given; short_patterns.hpp says who uses it and why).
//
// A block of 256 threads stages a tile of 9,216 positions and the 64 bytes after it in shared memory
// (16-byte loads, coalesced: engine/stage_tile.cuh). Each thread owns kShortStride = 36 consecutive
// positions: it reads the 10 words that hold them and the 3 bytes after (9 words of its own, an odd
// number, so a warp's reads are conflict-free), and at each position compares the pattern's first four
// bytes with the four text bytes there in one word compare (two words funnel-shifted, as lesson 14's
// v2 does). Only where those agree does it compare the rest, byte by byte from the tile: on text the
// first four bytes settle nearly every position. Count mode loops each block over the tiles
// (grid-stride, lesson 05); positions mode takes one tile per block and writes in order
// (engine/block_pass.cuh).
#include <algorithm>

#include "engine/block_pass.cuh"
#include "engine/stage_tile.cuh"
#include "engine/warp_tiles.cuh"
#include "short_patterns.hpp"

namespace cudamatch::lesson11 {

namespace {

constexpr int kThreads = static_cast<int>(kShortThreads);
constexpr std::size_t kTile = kShortTile;
constexpr std::size_t kStaged = kTile + 64;                     // the tile and more than m - 1 bytes after it
constexpr int kWords = static_cast<int>(kShortStride / 4) + 1;  // the last position's 4-byte window ends in the 10th
static_assert(kTile % 16 == 0 && kStaged % 16 == 0, "stage_tile copies whole 16-byte vectors");
static_assert(kShortStride % 4 == 0 && kShortStride / 4 % 2 == 1, "a stride is an odd number of words");
static_assert(kStaged >= kTile + 4 + kShortPatterns, "a tile's last thread reads its window and pattern there");
using BlockTemp = BlockPassTemp<kThreads>;

// The pattern's first min(m, 4) bytes as a little-endian word, and the mask of those bytes.
struct Head {
  std::uint32_t bytes;
  std::uint32_t mask;
};

__host__ __device__ inline Head head_of(const std::uint8_t* pattern, int m) {
  Head head{0, 0};
  for (int k = 0; k < 4 && k < m; ++k) {
    head.bytes |= std::uint32_t{pattern[k]} << (8 * k);
    head.mask |= 0xffu << (8 * k);
  }
  return head;
}

// A block's staged tile: the text's bytes [first, first + kStaged), zeros past n (shared memory in the
// kernel, a copy made the same way on the CPU).
struct StagedTile {
  const std::uint8_t* staged;
  std::size_t first;
  // The four bytes from `at`, a multiple of 4 inside the tile, the first one lowest.
  __host__ __device__ std::uint32_t word(std::size_t at) const { return staged_word(staged, at - first); }
  __host__ __device__ std::uint8_t byte(std::size_t at) const { return staged[at - first]; }
};

// One thread's positions [first, first + kShortStride) with p + m <= n: on_match(p) for each
// occurrence, in order; returns how many. (The pragma: the CPU's OnMatch is host code, the kernel's
// device code; each instantiation runs on its own side only.)
#pragma nv_exec_check_disable
template <class OnMatch>
__host__ __device__ unsigned scan_stride(const StagedTile& tile, std::size_t n, const std::uint8_t* pattern, int m,
                                         Head head, std::size_t first, OnMatch on_match) {
  std::uint32_t words[kWords];
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int k = 0; k < kWords; ++k) words[k] = tile.word(first + 4 * static_cast<std::size_t>(k));
  unsigned found = 0;
#ifdef __CUDA_ARCH__
#pragma unroll
#endif
  for (int j = 0; j < static_cast<int>(kShortStride); ++j) {
    const std::size_t p = first + static_cast<std::size_t>(j);
    if (p + static_cast<std::size_t>(m) > n) break;
    const unsigned shift = 8u * static_cast<unsigned>(j % 4);
    const std::uint32_t window =
        shift == 0 ? words[j / 4] : (words[j / 4] >> shift) | (words[j / 4 + 1] << (32u - shift));
    if (((window ^ head.bytes) & head.mask) != 0) continue;
    bool same = true;
    for (int k = 4; k < m && same; ++k) same = tile.byte(p + static_cast<std::size_t>(k)) == pattern[k];
    if (same) {
      ++found;
      on_match(p);
    }
  }
  return found;
}

template <Pass kPass>
__global__ void __launch_bounds__(kThreads)
    short_patterns_kernel(const std::uint8_t* __restrict__ text, std::size_t n,
                          const std::uint8_t* __restrict__ pattern, std::size_t m,
                          unsigned long long* __restrict__ counts, const unsigned long long* __restrict__ offsets,
                          std::uint64_t* __restrict__ positions) {
  __shared__ uint4 s_tile[kStaged / 16];
  __shared__ std::uint8_t s_pattern[kShortPatterns];
  __shared__ BlockTemp temp;
  const int length = static_cast<int>(m);
  if (threadIdx.x < m && threadIdx.x < kShortPatterns) s_pattern[threadIdx.x] = pattern[threadIdx.x];  // m < 16
  __syncthreads();
  const Head head = head_of(s_pattern, length);
  const auto* s_text = reinterpret_cast<const std::uint8_t*>(s_tile);
  unsigned found = 0;
  const std::size_t tile_first =
      search_staged_tiles<kPass, kThreads, kTile, kStaged>(text, n, m, s_tile, [&](std::size_t first) {
        found += scan_stride(StagedTile{s_text, first}, n, s_pattern, length, head, first + threadIdx.x * kShortStride,
                             [](std::size_t) {});
      });
  // The write pass has one tile per block, still staged.
  finish_block_pass<kPass>(found, temp, counts, offsets, positions, [&](std::uint64_t* out) {
    scan_stride(StagedTile{s_text, tile_first}, n, s_pattern, length, head, tile_first + threadIdx.x * kShortStride,
                [&](std::size_t position) { *out++ = position; });
  });
}

}  // namespace

void short_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  static const unsigned resident = resident_blocks(short_patterns_kernel<Pass::count>, kThreads, 0);
  const unsigned tiles = blocks_covering(text, pattern.size(), kTile);
  enqueue_count_pass(short_patterns_kernel<Pass::count>, {std::min(tiles, resident), kThreads, 0}, text, pattern, count,
                     stream);
}

std::uint64_t short_positions(const DeviceText& text, const DevicePattern& pattern,
                              DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream) {
  return positions_in_passes(short_patterns_kernel<Pass::count_per_block>, short_patterns_kernel<Pass::write>,
                             {blocks_covering(text, pattern.size(), kTile), kThreads, 0}, text, pattern, positions,
                             stream);
}

std::vector<std::uint64_t> short_scan_on_host(ByteView text, ByteView pattern) {
  std::vector<std::uint64_t> found;
  const int m = static_cast<int>(pattern.size);
  if (pattern.size == 0 || pattern.size > text.size) return found;
  const Head head = head_of(pattern.data, m);
  std::vector<std::uint8_t> staged(kStaged);
  for (std::size_t tile_first = 0; tile_first + pattern.size <= text.size; tile_first += kTile) {
    stage_tile_on_host(text, tile_first, staged);
    for (std::size_t t = 0; t < kThreads; ++t) {
      scan_stride(StagedTile{staged.data(), tile_first}, text.size, pattern.data, m, head,
                  tile_first + t * kShortStride, [&](std::size_t position) { found.push_back(position); });
    }
  }
  return found;
}

}  // namespace cudamatch::lesson11
