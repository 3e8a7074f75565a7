// Lesson 13, v0: the direct port, the baseline the optimized versions are measured against. Given.
//
// Boyer-Moore is serial: where the next window starts depends on the bytes of the current one. So each
// thread runs it over its own chunk of window starts (chunk_length(m) of them, engine/chunked_tiles.hpp),
// with the loop of bm_search.cuh: it compares the window at the chunk's first position right to left,
// shifts by the bad-character and good-suffix rules, and stops at the first window past its chunk (that
// window belongs to the next thread). Windows read up to m - 1 bytes past the chunk; none starts after n - m.
//
// The two tables (bm_tables.hpp) are built on the host and copied to scratch slots before every search;
// tables, pattern and text are read from global memory, every match takes a global atomic, and the host
// sorts the positions afterwards.
#include "bm_search.cuh"
#include "bm_tables.hpp"
#include "common/cuda_check.hpp"
#include "boyer_moore_gpu.hpp"
#include "engine/unordered_search.cuh"

namespace cudamatch::lesson13 {

namespace {

constexpr unsigned kThreads = 256;

// With `positions` null, only counts.
__global__ void bm_v0_kernel(const std::uint8_t* text, std::size_t n, const std::uint8_t* pattern, std::size_t m,
                             DeviceTables tables, unsigned long long* count, std::uint64_t* positions) {
  const std::size_t chunk = chunk_length(m);
  const std::size_t first = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) * chunk;
  const std::size_t candidates = n - m + 1;  // window starts 0 .. n - m; the callers ensure m <= n
  if (first >= candidates) return;
  const std::size_t windows = candidates - first < chunk ? candidates - first : chunk;
  boyer_moore_chunk(text + first, windows, pattern, static_cast<int>(m), tables.last_index, tables.good_suffix,
                    [&](std::size_t s) { report_unordered(count, positions, first + s); });
}

void search(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, std::uint64_t* positions,
            cudaStream_t stream) {
  const std::size_t m = pattern.size();
  const DeviceTables tables = upload_tables(pattern, stream);
  launch_per_item((text.size() - m) / chunk_length(m) + 1, kThreads, stream, bm_v0_kernel, text.data(), text.size(),
                  pattern.data(), m, tables, count, positions);
}

}  // namespace

const GpuVersion v0 = unordered_version<search>(
    "v0", "serial Boyer-Moore per thread chunk, host-built tables, global memory, one atomic per match");

}  // namespace cudamatch::lesson13
