// Lesson 16: the CSR table built by one block of the GPU (ssef_table.hpp says what it holds). Given.
//
// The table holds plan.step <= kMaxEntries = 4096 pattern offsets, so one block of 1024 threads sorts
// them all in shared memory, four per thread: key the fingerprint of p[r, r + B), value r. The input
// lists r in decreasing order and CUB's block radix sort is stable, so each bucket keeps its offsets in
// decreasing order. Each thread then writes the offsets of 64 consecutive buckets (16 uint4 stores):
// offsets[f] is the number of keys below f, found by one binary search for its first bucket and a walk
// over the sorted keys for the others, and the two bitmap words of its 64 buckets on the way. About
// 256 KB written by one block: a few microseconds, queued in the search's stream before the search.
#include <cub/block/block_radix_sort.cuh>

#include "common/cuda_check.hpp"
#include "engine/search_scratch.hpp"
#include "ssef_table.hpp"

namespace cudamatch::lesson16 {

namespace {

constexpr int kBuildThreads = 1024;
constexpr int kItems = kMaxEntries / kBuildThreads;
constexpr unsigned kBucketsPerThread = kBuckets / kBuildThreads;  // 64: two bitmap words, 16 uint4 of offsets
constexpr std::size_t kNonemptyWords = kBuckets / 32;
constexpr std::size_t kOffsetsWords = kBuckets + 4;  // kBuckets + 1, rounded up to whole uint4

using Sort = cub::BlockRadixSort<std::uint32_t, kBuildThreads, kItems, std::uint32_t>;
union BuildShared {
  typename Sort::TempStorage sort;
  std::uint32_t keys[kMaxEntries];  // after the sort: the fingerprints in increasing order
};
static_assert(sizeof(BuildShared) <= 48 * 1024, "the sort must fit in 48 KB of shared memory");

// The `count` <= 16 bytes at `bytes` (any alignment) as the 16-byte vector fingerprint_in_vector takes.
__device__ uint4 load_bytes(const std::uint8_t* bytes, unsigned count) {
  std::uint32_t w[4] = {0, 0, 0, 0};
#pragma unroll
  for (unsigned i = 0; i < 16; ++i) {
    if (i < count) w[i / 4] |= static_cast<std::uint32_t>(bytes[i]) << (8 * (i % 4));
  }
  return make_uint4(w[0], w[1], w[2], w[3]);
}

__global__ void __launch_bounds__(kBuildThreads)
    build_table_kernel(const std::uint8_t* __restrict__ pattern, Plan plan, std::uint32_t* __restrict__ nonempty,
                       std::uint32_t* __restrict__ offsets, std::uint32_t* __restrict__ entries) {
  __shared__ BuildShared shared;
  const unsigned count = plan.step;

  // Item i (thread t holds items kItems t .. kItems t + kItems - 1) is r = count - 1 - i. Items past the
  // entries take the largest key: being last in the input, they sort after every entry.
  std::uint32_t keys[kItems], values[kItems];
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const unsigned i = threadIdx.x * kItems + k;
    const unsigned r = i < count ? count - 1 - i : 0;
    keys[k] = i < count ? fingerprint_in_vector(plan, load_bytes(pattern + r, plan.block), 0) : kBuckets - 1;
    values[k] = r;
  }
  Sort(shared.sort).Sort(keys, values, 0, 16);
  __syncthreads();  // the sort's storage becomes the sorted keys
#pragma unroll
  for (int k = 0; k < kItems; ++k) {
    const unsigned i = threadIdx.x * kItems + k;
    if (i < count) {
      shared.keys[i] = keys[k];
      entries[i] = values[k];
    }
  }
  __syncthreads();

  // This thread's buckets: the first key not below `first`, then a walk.
  const unsigned first = threadIdx.x * kBucketsPerThread;
  unsigned at = 0;
  for (unsigned hi = count; at < hi;) {
    const unsigned mid = (at + hi) / 2;
    if (shared.keys[mid] < first) {
      at = mid + 1;
    } else {
      hi = mid;
    }
  }
  for (unsigned word = 0; word < kBucketsPerThread / 32; ++word) {
    std::uint32_t bits = 0;
    for (unsigned quad = 0; quad < 8; ++quad) {
      std::uint32_t start[4];
      for (unsigned j = 0; j < 4; ++j) {
        const unsigned f = first + 32 * word + 4 * quad + j;
        start[j] = at;  // keys[at] >= f here
        while (at < count && shared.keys[at] == f) ++at;
        if (at > start[j]) bits |= 1u << (4 * quad + j);
      }
      reinterpret_cast<uint4*>(offsets)[(first + 32 * word) / 4 + quad] =
          make_uint4(start[0], start[1], start[2], start[3]);
    }
    nonempty[first / 32 + word] = bits;
  }
  if (threadIdx.x == 0) offsets[kBuckets] = count;
}

}  // namespace

CsrTable build_table_on_gpu(const DevicePattern& pattern, const Plan& plan, cudaStream_t stream) {
  auto* nonempty = scratch<std::uint32_t>(ScratchSlot::table0, kNonemptyWords + kOffsetsWords + kMaxEntries);
  auto* offsets = nonempty + kNonemptyWords;
  auto* entries = offsets + kOffsetsWords;
  build_table_kernel<<<1, kBuildThreads, 0, stream>>>(pattern.data(), plan, nonempty, offsets, entries);
  CUDA_CHECK_LAUNCH();
  return {nonempty, offsets, entries};
}

}  // namespace cudamatch::lesson16
