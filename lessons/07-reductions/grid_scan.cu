// Lesson 07 - the grid-wide exclusive scan, given: tiles of 12,288 elements (12 vectors of 4 per
// thread), each scanned by one block of 256 threads with your warp_inclusive_sum and
// block_exclusive_sum (block_sums.cuh), and two ways to give every tile the sum of the tiles before it:
//   reduce-then-scan: a launch writes every tile's total, one block scans the totals, a third launch
//     reads the tiles again and scans them from there: the input is read twice (12 bytes per element);
//   decoupled look-back (Merrill and Garland, 2016): one launch; a block publishes its tile's total as
//     soon as it has it, then its first warp reads the published words of the 32 tiles before it at
//     once, adding totals until it meets a tile that has published its inclusive prefix; the input is
//     read once (8 bytes per element, as a copy).
#include <block_sums.cuh>  // angle brackets: your track's copy (solutions/ or lessons/), not the one beside this file

#include <climits>
#include <cstdint>
#include <stdexcept>

#include "common/cuda_check.hpp"
#include "reductions.hpp"

namespace cudamatch::lesson07 {

namespace {

constexpr int kScanThreads = 256;                                           // 8 warps
constexpr int kVectorsPerLane = 12;                                         // 48 elements per thread
constexpr std::size_t kWarpElements = 32 * 4 * kVectorsPerLane;             // 1536
constexpr std::size_t kTileElements = kWarpElements * (kScanThreads / 32);  // 12288: 48 KB
constexpr int kTotalsThreads = 1024;                                        // the one block that scans the tile totals

// A tile's published word: the flag in the high half, the sum in the low half, written and read
// as one 64-bit word so that no reader sees a flag without its sum.
constexpr unsigned long long kAggregate = 1ull << 32;  // the tile's own total
constexpr unsigned long long kPrefix = 2ull << 32;     // the sum of this tile and all before it

std::size_t tiles_of(std::size_t n) { return (n + kTileElements - 1) / kTileElements; }

// Lane l of warp w holds vectors r = 0 .. kVectorsPerLane - 1 (0..11) of its warp's kWarpElements
// (1,536) elements: elements 4 (32 r + l) ..; the warp's loads are 512 consecutive bytes each. Elements
// at or past n read as 0.
__device__ std::size_t vector_start(std::size_t tile, int r) {
  return tile * kTileElements + threadIdx.x / 32 * kWarpElements +
         4 * (32 * static_cast<std::size_t>(r) + threadIdx.x % 32);
}

__device__ void load_tile(const unsigned* __restrict__ in, std::size_t n, std::size_t tile,
                          uint4 (&v)[kVectorsPerLane]) {
#pragma unroll
  for (int r = 0; r < kVectorsPerLane; ++r) {
    const std::size_t e = vector_start(tile, r);
    if (e + 4 <= n) {
      v[r] = *reinterpret_cast<const uint4*>(in + e);
    } else {
      v[r] = make_uint4(e < n ? in[e] : 0u, e + 1 < n ? in[e + 1] : 0u, e + 2 < n ? in[e + 2] : 0u, 0u);
    }
  }
}

__device__ unsigned vector_sum(const uint4& v) { return v.x + v.y + v.z + v.w; }

// The tile's total, and (returned) the sum of the tile's elements before this thread's warp.
// Only lane 31 brings its warp's total to the block scan: every lane of warp w then gets the totals of
// the warps before w.
__device__ unsigned scan_warp_totals(const uint4 (&v)[kVectorsPerLane], BlockSumsTemp<kScanThreads>& temp,
                                     unsigned& tile_total) {
  unsigned lane_total = 0;
#pragma unroll
  for (int r = 0; r < kVectorsPerLane; ++r) lane_total += vector_sum(v[r]);
  const unsigned warp_total = __shfl_sync(kFullWarp, warp_inclusive_sum(lane_total), 31);
  return block_exclusive_sum(threadIdx.x % 32 == 31 ? warp_total : 0u, temp, tile_total);
}

// Writes the tile's exclusive sums, `before` being the sum of everything before this thread's warp.
// The scan within the warp is done here, after the (slow) wait for `before`, so that only the loaded
// vectors stay in registers meanwhile.
__device__ void store_tile(unsigned* __restrict__ out, std::size_t n, std::size_t tile,
                           const uint4 (&v)[kVectorsPerLane], unsigned before) {
#pragma unroll
  for (int r = 0; r < kVectorsPerLane; ++r) {
    const unsigned own = vector_sum(v[r]);
    const unsigned inclusive = warp_inclusive_sum(own);
    const std::size_t e = vector_start(tile, r);
    uint4 o;
    o.x = before + inclusive - own;
    o.y = o.x + v[r].x;
    o.z = o.y + v[r].y;
    o.w = o.z + v[r].z;
    if (e + 4 <= n) {
      *reinterpret_cast<uint4*>(out + e) = o;
    } else {
      if (e < n) out[e] = o.x;
      if (e + 1 < n) out[e + 1] = o.y;
      if (e + 2 < n) out[e + 2] = o.z;
    }
    before += __shfl_sync(kFullWarp, inclusive, 31);
  }
}

// ---- reduce-then-scan ----

__global__ void tile_totals_kernel(const unsigned* __restrict__ in, std::size_t n, unsigned* __restrict__ totals) {
  __shared__ BlockSumsTemp<kScanThreads> temp;
  uint4 v[kVectorsPerLane];
  load_tile(in, n, blockIdx.x, v);
  unsigned own = 0;
#pragma unroll
  for (int r = 0; r < kVectorsPerLane; ++r) own += vector_sum(v[r]);
  const unsigned total = block_reduce_sum(own, temp);
  if (threadIdx.x == 0) totals[blockIdx.x] = total;
}

// One block: totals[t] becomes the sum of the totals before t. Each thread scans a run of consecutive
// totals alone, and the block scans the runs' sums.
__global__ void scan_totals_kernel(unsigned* __restrict__ totals, std::size_t tiles) {
  __shared__ BlockSumsTemp<kTotalsThreads> temp;
  const std::size_t per_thread = (tiles + kTotalsThreads - 1) / kTotalsThreads;
  const std::size_t first = threadIdx.x * per_thread;
  const std::size_t last = first + per_thread < tiles ? first + per_thread : tiles;
  unsigned run = 0;
  for (std::size_t t = first; t < last; ++t) run += totals[t];
  unsigned all = 0;
  unsigned running = block_exclusive_sum(run, temp, all);
  for (std::size_t t = first; t < last; ++t) {
    const unsigned own = totals[t];
    totals[t] = running;
    running += own;
  }
}

__global__ void scan_tiles_kernel(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n,
                                  const unsigned* __restrict__ offsets) {
  __shared__ BlockSumsTemp<kScanThreads> temp;
  uint4 v[kVectorsPerLane];
  load_tile(in, n, blockIdx.x, v);
  unsigned tile_total = 0;
  const unsigned warp_prefix = scan_warp_totals(v, temp, tile_total);
  store_tile(out, n, blockIdx.x, v, offsets[blockIdx.x] + warp_prefix);
}

// ---- decoupled look-back ----

__device__ void publish(unsigned long long* status, std::size_t tile, unsigned long long flag, unsigned sum) {
  *reinterpret_cast<volatile unsigned long long*>(status + tile) = flag | sum;
}

// Called by the whole first warp of tile `tile` (> 0): the sum of all tiles before it.
__device__ unsigned look_back(const unsigned long long* status, std::size_t tile) {
  const unsigned lane = threadIdx.x % 32;
  unsigned exclusive = 0;
  for (long long nearest = static_cast<long long>(tile) - 1;; nearest -= 32) {
    const long long mine = nearest - static_cast<long long>(lane);  // lane 0: the nearest tile
    unsigned long long word = kPrefix;                              // before tile 0: a prefix of 0
    if (mine >= 0) {
      const volatile unsigned long long* slot = status + mine;
      do {
        word = *slot;  // spins until that tile has published: it holds an earlier tile number, so it runs
      } while ((word >> 32) == 0);
    }
    const unsigned prefixes = __ballot_sync(kFullWarp, (word & ~0xffffffffull) == kPrefix);
    const unsigned stop = prefixes != 0 ? static_cast<unsigned>(__ffs(prefixes) - 1) : 31u;
    const unsigned part = lane <= stop ? static_cast<unsigned>(word) : 0u;  // up to the nearest prefix
    exclusive += __shfl_sync(kFullWarp, warp_inclusive_sum(part), 31);
    if (prefixes != 0) return exclusive;
  }
}

// status[0] counts the tiles handed out; status[1 + t] is tile t's published word. All zero at start.
__global__ void scan_look_back_kernel(const unsigned* __restrict__ in, unsigned* __restrict__ out, std::size_t n,
                                      unsigned long long* __restrict__ status) {
  __shared__ BlockSumsTemp<kScanThreads> temp;
  __shared__ unsigned long long tile_number;
  __shared__ unsigned tile_offset;
  // Tiles are numbered in the order blocks start, not by blockIdx.x: a block waits only for tiles
  // whose blocks are already running, so the look-back cannot deadlock.
  if (threadIdx.x == 0) tile_number = atomicAdd(status, 1ull);
  __syncthreads();
  const std::size_t tile = tile_number;
  unsigned long long* words = status + 1;
  uint4 v[kVectorsPerLane];
  load_tile(in, n, tile, v);
  unsigned total = 0;
  const unsigned warp_prefix = scan_warp_totals(v, temp, total);
  if (tile == 0) {
    if (threadIdx.x == 0) {
      publish(words, 0, kPrefix, total);
      tile_offset = 0;
    }
  } else {
    if (threadIdx.x == 0) publish(words, tile, kAggregate, total);
    if (threadIdx.x < 32) {
      const unsigned exclusive = look_back(words, tile);
      if (threadIdx.x == 0) {
        publish(words, tile, kPrefix, exclusive + total);
        tile_offset = exclusive;
      }
    }
  }
  __syncthreads();
  store_tile(out, n, tile, v, tile_offset + warp_prefix);
}

}  // namespace

std::size_t scan_scratch_bytes(std::size_t n) { return (tiles_of(n) + 1) * sizeof(unsigned long long); }

void exclusive_scan(ScanVersion version, const unsigned* in, unsigned* out, std::size_t n, void* scratch,
                    cudaStream_t stream) {
  if (n == 0) return;
  if (reinterpret_cast<std::uintptr_t>(in) % 16 != 0 || reinterpret_cast<std::uintptr_t>(out) % 16 != 0) {
    throw std::invalid_argument("exclusive_scan: the input and the output must be 16-byte aligned");
  }
  const std::size_t tiles = tiles_of(n);
  if (tiles > INT_MAX) throw std::invalid_argument("exclusive_scan: more than 2^31 tiles");
  const auto blocks = static_cast<unsigned>(tiles);
  if (version == ScanVersion::look_back) {
    auto* status = static_cast<unsigned long long*>(scratch);
    CUDA_CHECK(cudaMemsetAsync(status, 0, scan_scratch_bytes(n), stream));
    scan_look_back_kernel<<<blocks, kScanThreads, 0, stream>>>(in, out, n, status);
  } else {
    auto* totals = static_cast<unsigned*>(scratch);
    tile_totals_kernel<<<blocks, kScanThreads, 0, stream>>>(in, n, totals);
    CUDA_CHECK_LAUNCH();
    scan_totals_kernel<<<1, kTotalsThreads, 0, stream>>>(totals, tiles);
    CUDA_CHECK_LAUNCH();
    scan_tiles_kernel<<<blocks, kScanThreads, 0, stream>>>(in, out, n, totals);
  }
  CUDA_CHECK_LAUNCH();
}

}  // namespace cudamatch::lesson07
