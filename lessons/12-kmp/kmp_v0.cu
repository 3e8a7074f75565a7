// Lesson 12, v0: the direct port, the baseline the optimized versions are measured against. Given.
//
// KMP is a serial scan: its state after a byte depends on every byte before it. To run it in
// parallel, each thread owns a chunk of chunk_length(m) consecutive positions and runs the automaton
// of common/matchers/kmp.cpp from state 0 at its chunk's first byte. Starting there, the automaton
// finds every occurrence that starts in the chunk or later; the thread reads on m - 1 bytes past its
// chunk, so that it finds exactly the occurrences STARTING in its chunk (the last one ends m - 1
// bytes after the chunk) and none of its neighbour's. Those m - 1 extra bytes per chunk are the price
// of parallelism, hence chunks of 4m: at most 25% more bytes read than the text holds.
//
// The failure table is built on the host and uploaded to a scratch slot; the kernel reads the text,
// the pattern and the table from global memory and reports each match with a global atomic, so the
// host sorts the positions afterwards.
#include <algorithm>

#include "common/cuda_check.hpp"
#include "engine/search_scratch.hpp"
#include "engine/unordered_search.cuh"
#include "failure_table.hpp"
#include "kmp_gpu.hpp"

namespace cudamatch::lesson12 {

namespace {

constexpr unsigned kThreads = 256;

// Positions per thread: 4m (the m - 1 extra bytes cost at most 25%), at least 256.
std::size_t chunk_length(std::size_t m) { return std::max<std::size_t>(4 * m, 256); }

// With `positions` null, only counts.
__global__ void kmp_v0_kernel(const std::uint8_t* text, std::size_t n, const std::uint8_t* pattern, std::size_t m,
                              const std::int32_t* next, std::size_t chunk, unsigned long long* count,
                              std::uint64_t* positions) {
  const std::size_t first = (static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x) * chunk;
  if (first + m > n) return;  // no occurrence can start in this chunk
  const std::size_t end = min(first + chunk + m - 1, n);
  const auto length = static_cast<std::int32_t>(m);
  std::int32_t state = 0;  // pattern bytes matched so far
  for (std::size_t i = first; i < end; ++i) {
    const std::uint8_t c = text[i];
    while (state > -1 && pattern[state] != c) state = next[state];
    if (++state == length) {
      report_unordered(count, positions, i + 1 - m);
      state = next[length];
    }
  }
}

// Builds the table on the host and copies it to ScratchSlot::table0. The copy is from pageable
// memory: the call returns once the driver has staged the bytes (the vector may then go), and it may
// wait for the stream to drain first - a cost v1 and v2 avoid by building the table on the GPU.
const std::int32_t* upload_failure_table(const DevicePattern& pattern, cudaStream_t stream) {
  const std::vector<std::int32_t> next = failure_table(pattern.host());
  auto* device_next = scratch<std::int32_t>(ScratchSlot::table0, next.size());
  CUDA_CHECK(
      cudaMemcpyAsync(device_next, next.data(), next.size() * sizeof(std::int32_t), cudaMemcpyHostToDevice, stream));
  return device_next;
}

void search(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, std::uint64_t* positions,
            cudaStream_t stream) {
  const std::int32_t* next = upload_failure_table(pattern, stream);
  const std::size_t chunk = chunk_length(pattern.size());
  launch_per_item((text.size() - pattern.size() + chunk) / chunk, kThreads, stream, kmp_v0_kernel, text.data(),
                  text.size(), pattern.data(), pattern.size(), next, chunk, count, positions);
}

}  // namespace

const GpuVersion v0 = unordered_version<search>(
    "v0", "a KMP automaton per thread over its own chunk, global memory, one atomic per match");

}  // namespace cudamatch::lesson12
