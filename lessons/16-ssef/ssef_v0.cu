// Lesson 16, v0: the direct port, the baseline the optimized versions are measured against. Given.
//
// As SSEF is usually written: the host builds the table as 65,536 linked lists (head[f] is the first
// pattern offset with fingerprint f, next[r] the one after r, -1 ends a list; ssef_plan.cpp), and
// copies head (256 KB) and next (4 bytes per entry) to the scratch slots table0 and table1 before
// every search: two copies from pageable memory, each of which first waits for the stream.
//
// One thread per examined block: it reads the block's B bytes one by one from global memory, computes
// the fingerprint by its definition (ssef_plan.hpp), and walks its bucket's list, one dependent load of
// next[] per entry. Each alignment s = o - r is verified byte by byte in global memory; a match takes a
// global atomicAdd, and the host sorts the positions afterwards.
#include "common/cuda_check.hpp"
#include "engine/search_scratch.hpp"
#include "engine/unordered_search.cuh"
#include "ssef_plan.hpp"
#include "ssef_gpu.hpp"

namespace cudamatch::lesson16 {

namespace {

constexpr unsigned kThreads = 256;

// With `positions` null, only counts.
__global__ void ssef_v0_kernel(const std::uint8_t* text, std::size_t n, const std::uint8_t* pattern, std::size_t m,
                               Plan plan, const std::int32_t* head, const std::int32_t* next, unsigned long long* count,
                               std::uint64_t* positions) {
  const std::size_t o = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) * plan.step;
  if (o > last_block(plan, n, m)) return;
  std::uint32_t fp = 0;
  if (plan.block <= 2) {
    for (unsigned q = 0; q < plan.block; ++q) fp |= static_cast<std::uint32_t>(text[o + q]) << (8 * q);
  } else {
    for (unsigned u = 0; u < 16 / plan.block; ++u) {
      for (unsigned q = 0; q < plan.block; ++q) fp |= ((text[o + q] >> plan.bits[u]) & 1u) << (u * plan.block + q);
    }
  }
  for (std::int32_t r = head[fp]; r >= 0; r = next[r]) {
    if (static_cast<std::size_t>(r) > o) continue;  // would start before the text
    const std::size_t s = o - static_cast<std::size_t>(r);
    if (s > n - m) break;  // the list's later entries start later still
    std::size_t j = 0;
    while (j < m && text[s + j] == pattern[j]) ++j;
    if (j == m) report_unordered(count, positions, s);
  }
}

void search(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, std::uint64_t* positions,
            cudaStream_t stream) {
  const std::size_t m = pattern.size();
  const Plan plan = make_plan(pattern.host());
  const LinkedTable table = build_linked_table(plan, pattern.host());
  auto* head = scratch<std::int32_t>(ScratchSlot::table0, table.head.size());
  auto* next = scratch<std::int32_t>(ScratchSlot::table1, table.next.size());
  CUDA_CHECK(cudaMemcpyAsync(head, table.head.data(), table.head.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice,
                             stream));
  CUDA_CHECK(cudaMemcpyAsync(next, table.next.data(), table.next.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice,
                             stream));
  launch_per_item(last_block(plan, text.size(), m) / plan.step + 1, kThreads, stream, ssef_v0_kernel, text.data(),
                  text.size(), pattern.data(), m, plan, head, next, count, positions);
}

}  // namespace

const GpuVersion v0 =
    unordered_version<search>("v0", "linked-list table uploaded per search, a thread per examined block, byte loads");

}  // namespace cudamatch::lesson16
