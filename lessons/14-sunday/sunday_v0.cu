// Lesson 14, v0: the direct port, the baseline the optimized versions are measured against. Given.
//
// Quick Search is serial: the next window depends on the byte after the current one. So each thread
// runs it over its own chunk of window starts (chunk_length(m) of them, engine/chunked_tiles.hpp): it
// compares the window at the chunk's first position with the pattern, shifts by the table entry of the
// byte just after the window, text[s + m], and stops at the first window past its chunk. Windows read
// up to m bytes past the chunk. The window at the last alignment, n - m, has no byte after it: the
// thread stops there instead of reading text[n].
//
// The shift table (256 x int32: m + 1 for a byte not in the pattern, else m - its last index) is built on
// the host and copied to a scratch slot before every search; table, pattern and text are read from global
// memory, every match takes a global atomic, and the host sorts the positions afterwards.
#include <algorithm>
#include <array>
#include <climits>

#include "common/cuda_check.hpp"
#include "engine/search_scratch.hpp"
#include "engine/unordered_search.cuh"
#include "sunday_gpu.hpp"

namespace cudamatch::lesson14 {

namespace {

constexpr unsigned kThreads = 256;

// With `positions` null, only counts.
__global__ void sunday_v0_kernel(const std::uint8_t* text, std::size_t n, const std::uint8_t* pattern, std::size_t m,
                                 const std::int32_t* shift, unsigned long long* count, std::uint64_t* positions) {
  const std::size_t chunk = chunk_length(m);
  const std::size_t last = n - m;  // the last window; the callers ensure m <= n
  std::size_t s = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) * chunk;
  if (s > last) return;
  const std::size_t end = s + chunk;  // this thread's windows start before `end`
  for (;;) {
    std::size_t j = 0;
    while (j < m && text[s + j] == pattern[j]) ++j;
    if (j == m) report_unordered(count, positions, s);
    if (s == last) return;  // no byte after the last window
    s += shift[text[s + m]];
    if (s >= end || s > last) return;
  }
}

void search(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, std::uint64_t* positions,
            cudaStream_t stream) {
  const std::vector<std::uint8_t>& p = pattern.host();
  const std::size_t m = p.size();
  // A shorter shift than Sunday's is always safe, so capping at INT_MAX keeps the table exact in practice
  // and correct for any m.
  std::array<std::int32_t, 256> table;
  table.fill(static_cast<std::int32_t>(std::min<std::size_t>(m + 1, INT_MAX)));
  for (std::size_t i = 0; i < m; ++i) table[p[i]] = static_cast<std::int32_t>(std::min<std::size_t>(m - i, INT_MAX));
  // From pageable memory the copy waits for the stream and returns once `table` is staged: the host
  // preparation and this synchronization are part of every v0 search.
  auto* shift = scratch<std::int32_t>(ScratchSlot::table0, table.size());
  CUDA_CHECK(cudaMemcpyAsync(shift, table.data(), sizeof table, cudaMemcpyHostToDevice, stream));

  launch_per_item((text.size() - m) / chunk_length(m) + 1, kThreads, stream, sunday_v0_kernel, text.data(), text.size(),
                  pattern.data(), m, shift, count, positions);
}

}  // namespace

const GpuVersion v0 = unordered_version<search>(
    "v0", "serial Quick Search per thread chunk, host-built table, global memory, one atomic per match");

}  // namespace cudamatch::lesson14
