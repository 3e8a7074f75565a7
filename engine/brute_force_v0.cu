// The given brute force: lesson 11's v0, the direct port that the optimized versions are measured
// against, and the matcher lesson 17's driver and tests stream with (their subject is the streaming,
// not the kernel). One thread per text position compares the pattern byte by byte in global memory and
// reports a match with a global atomic. Positions arrive in whatever order the threads ran, so the host
// sorts them afterwards (UnorderedVersion).
#include "engine/brute_force_v0.hpp"
#include "engine/unordered_search.cuh"

namespace cudamatch {

namespace {

constexpr unsigned kThreads = 256;

// With `positions` null, only counts.
__global__ void bf_v0_kernel(const std::uint8_t* text, std::size_t n, const std::uint8_t* pattern, std::size_t m,
                             unsigned long long* count, std::uint64_t* positions) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i > n - m) return;  // the callers ensure m <= n
  for (std::size_t j = 0; j < m; ++j) {
    if (text[i + j] != pattern[j]) return;
  }
  report_unordered(count, positions, i);
}

void search(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, std::uint64_t* positions,
            cudaStream_t stream) {
  launch_per_item(text.size() - pattern.size() + 1, kThreads, stream, bf_v0_kernel, text.data(), text.size(),
                  pattern.data(), pattern.size(), count, positions);
}

}  // namespace

const GpuVersion brute_force_v0 =
    unordered_version<search>("v0", "one thread per position in global memory, one atomic per match");

}  // namespace cudamatch
