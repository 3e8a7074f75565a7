// Lesson 13: the Boyer-Moore tables, on the host (v0, v1) and on the GPU (v2's good-suffix table).
//
// Both constructions go through the same quantity, suffix[i]: the length of the longest common suffix
// of pattern[0, i] and the pattern. With t bytes matched (a mismatch at i = m - 1 - t):
//   - if some i' < m - 1 has suffix[i'] == t exactly, the t bytes ending at i' equal the matched ones
//     and the byte before them differs from pattern[m - 1 - t] (or the copy starts the pattern): the
//     shift is m - 1 - i' for the largest such i' (the closest copy);
//   - otherwise the shift is m - L for the longest border L <= t of the pattern (p[0, L) equal to its
//     last L bytes; L = 0 when none): that prefix slides under the matched bytes.
// The host computes suffix[] in O(m) with the Z-algorithm, a serial loop. The GPU computes each
// suffix[i] directly, one thread per i, comparing 4 bytes per step: O(suffix[i]) steps, a few for a
// pattern taken from text, so the whole table costs a few microseconds (one block, mostly its launch).
// The worst case is a periodic pattern, where suffix[i] is long for every i: about m^2 / 8 word
// compares in all, 2 million for "aaa...a" at m = 4096, spread over the block's 1024 threads (of the
// order of 0.1 ms by estimate; v2 uses this kernel up to m of about 6,300).
#include "bm_tables.hpp"

#include <cub/block/block_scan.cuh>

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/cuda_check.hpp"
#include "engine/search_scratch.hpp"

namespace cudamatch::lesson13 {

HostTables build_tables(ByteView pattern) {
  const int m = static_cast<int>(pattern.size);
  const std::uint8_t* p = pattern.data;
  HostTables tables;
  tables.last_index.fill(-1);
  for (int j = 0; j + 1 < m; ++j) tables.last_index[p[j]] = j;

  // z[k]: the longest common prefix of the reversed pattern and its suffix from k, so that
  // suffix[i] = z[m - 1 - i]. [left, right): the rightmost known copy of a prefix of the reversed pattern.
  const auto reversed = [&](int k) { return p[m - 1 - k]; };
  std::vector<int> z(static_cast<std::size_t>(m), 0);
  z[0] = m;
  for (int k = 1, left = 0, right = 0; k < m; ++k) {
    int length = k < right ? std::min(right - k, z[static_cast<std::size_t>(k - left)]) : 0;
    while (k + length < m && reversed(length) == reversed(k + length)) ++length;
    z[static_cast<std::size_t>(k)] = length;
    if (k + length > right) left = k, right = k + length;
  }
  const auto suffix = [&](int i) { return z[static_cast<std::size_t>(m - 1 - i)]; };

  // occurrence[t]: the largest i < m - 1 with suffix[i] == t, -1 when there is none.
  std::vector<int> occurrence(static_cast<std::size_t>(m), -1);
  for (int i = 0; i + 1 < m; ++i) occurrence[static_cast<std::size_t>(suffix(i))] = i;
  tables.good_suffix.resize(static_cast<std::size_t>(m));
  int border = 0;  // the longest border <= t
  for (int t = 0; t < m; ++t) {
    if (t > 0 && suffix(t - 1) == t) border = t;
    const int copy = occurrence[static_cast<std::size_t>(t)];
    tables.good_suffix[static_cast<std::size_t>(m - 1 - t)] = copy >= 0 ? m - 1 - copy : m - border;
  }
  return tables;
}

DeviceTables upload_tables(const DevicePattern& pattern, cudaStream_t stream) {
  const HostTables host = build_tables(pattern.host());
  const std::size_t m = pattern.size();
  auto* last_index = scratch<std::int32_t>(ScratchSlot::table0, 256);
  auto* good_suffix = scratch<std::int32_t>(ScratchSlot::table1, m);
  CUDA_CHECK(
      cudaMemcpyAsync(last_index, host.last_index.data(), sizeof host.last_index, cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(
      cudaMemcpyAsync(good_suffix, host.good_suffix.data(), m * sizeof(std::int32_t), cudaMemcpyHostToDevice, stream));
  return {last_index, good_suffix};
}

namespace {

constexpr int kThreads = 1024;
constexpr int kPad = 4;  // zero bytes before the pattern's copy: a word may start up to 3 bytes before it

// The pattern's copy in shared memory: kPad zero bytes, the m bytes, room for the word after the last.
__host__ __device__ constexpr std::size_t padded_bytes(std::size_t m) { return (kPad + m + 8 + 15) / 16 * 16; }
constexpr std::size_t shared_bytes(std::size_t m) { return padded_bytes(m) + 4 * m + (m + 15) / 16 * 16; }

using BlockScan = cub::BlockScan<int, kThreads, cub::BLOCK_SCAN_WARP_SCANS>;  // small temporary storage
static_assert(shared_bytes(kMaxGoodSuffixOnGpu) + sizeof(BlockScan::TempStorage) <= 48 * 1024,
              "the good-suffix kernel's shared memory exceeds 48 KB");

// pattern[end - 3, end] as a little-endian word (pattern[end] in the top byte), end >= 0.
__device__ unsigned word_ending_at(const unsigned* words, int end) {
  const int first = end - 3 + kPad;  // its index in the padded copy, >= 1
  return __funnelshift_r(words[first / 4], words[first / 4 + 1], 8 * (first % 4));
}

// suffix[i] (see the top of the file), comparing backwards from i and from m - 1, 4 bytes per step;
// clz / 8 counts the equal bytes from the top of the first word that differs.
__device__ int common_suffix_length(const unsigned* words, int i, int m) {
  for (int k = 0; k <= i; k += 4) {
    const unsigned diff = word_ending_at(words, i - k) ^ word_ending_at(words, m - 1 - k);
    if (diff != 0) return min(k + __clz(diff) / 8, i + 1);
  }
  return i + 1;
}

struct Max {
  __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

__global__ void __launch_bounds__(kThreads)
    good_suffix_kernel(const std::uint8_t* __restrict__ pattern, int m, std::int32_t* __restrict__ good_suffix) {
  __shared__ BlockScan::TempStorage scan;
  extern __shared__ unsigned words[];
  auto* bytes = reinterpret_cast<std::uint8_t*>(words);
  const int padded = static_cast<int>(padded_bytes(m));
  int* occurrence = reinterpret_cast<int*>(bytes + padded);           // as on the host
  auto* is_border = reinterpret_cast<std::uint8_t*>(occurrence + m);  // [L]: p[0, L) is a suffix of p

  for (int b = threadIdx.x; b < padded; b += kThreads) bytes[b] = b >= kPad && b < kPad + m ? pattern[b - kPad] : 0;
  for (int t = threadIdx.x; t < m; t += kThreads) occurrence[t] = -1, is_border[t] = 0;
  __syncthreads();
  for (int i = threadIdx.x; i < m - 1; i += kThreads) {
    const int length = common_suffix_length(words, i, m);
    atomicMax(&occurrence[length], i);  // the largest i wins, whatever the order
    if (length == i + 1) is_border[i + 1] = 1;
  }
  __syncthreads();

  // The longest border <= t is an inclusive max-scan over t, 1024 values of t at a time.
  int border_before = 0;  // the longest border in the segments already done
  for (int base = 0; base < m; base += kThreads) {
    const int t = base + static_cast<int>(threadIdx.x);
    int border = 0, segment_border = 0;
    BlockScan(scan).InclusiveScan(t < m && is_border[t] ? t : 0, border, Max{}, segment_border);
    border = max(border, border_before);
    if (t < m) good_suffix[m - 1 - t] = occurrence[t] >= 0 ? m - 1 - occurrence[t] : m - border;
    border_before = max(border_before, segment_border);
    __syncthreads();  // the scan's storage is reused
  }
}

}  // namespace

DeviceTables good_suffix_on_gpu(const DevicePattern& pattern, cudaStream_t stream) {
  const std::size_t m = pattern.size();
  if (m == 0 || m > kMaxGoodSuffixOnGpu) {
    throw std::invalid_argument("good_suffix_on_gpu: m = " + std::to_string(m) + ", must be 1 to " +
                                std::to_string(kMaxGoodSuffixOnGpu));
  }
  auto* good_suffix = scratch<std::int32_t>(ScratchSlot::table1, m);
  good_suffix_kernel<<<1, kThreads, shared_bytes(m), stream>>>(pattern.data(), static_cast<int>(m), good_suffix);
  CUDA_CHECK_LAUNCH();
  return {nullptr, good_suffix};
}

}  // namespace cudamatch::lesson13
