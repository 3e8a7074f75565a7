// Lesson 07, v0: the direct port, the baseline the optimized version is measured against. Given.
// One thread per text position compares the pattern byte by byte in global memory and reports a
// match with a global atomic. Positions arrive in whatever order the threads ran, so the host sorts
// them afterwards.
#include <algorithm>
#include <vector>

#include "common/cuda_check.hpp"
#include "versions.hpp"

namespace lesson07 {

namespace {

constexpr unsigned kThreads = 256;

// With `positions` null, only counts.
__global__ void bf_v0_kernel(const std::uint8_t* text, std::size_t n, const std::uint8_t* pattern, std::size_t m,
                             unsigned long long* count, std::uint64_t* positions) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i > n - m) return;  // the launcher ensures m <= n
  for (std::size_t j = 0; j < m; ++j) {
    if (text[i + j] != pattern[j]) return;
  }
  const unsigned long long slot = atomicAdd(count, 1ull);
  if (positions != nullptr) positions[slot] = i;
}

std::uint64_t run(const DeviceText& text, const DeviceBuffer<std::uint8_t>& pattern, std::uint64_t* positions,
                  cudaStream_t stream) {
  const std::size_t candidates = text.size() - pattern.size() + 1;
  DeviceBuffer<unsigned long long> count(1);
  CUDA_CHECK(cudaMemsetAsync(count.data(), 0, sizeof(unsigned long long), stream));
  const auto blocks = static_cast<unsigned>((candidates + kThreads - 1) / kThreads);
  bf_v0_kernel<<<blocks, kThreads, 0, stream>>>(text.data(), text.size(), pattern.data(), pattern.size(),
                                                count.data(), positions);
  CUDA_CHECK_LAUNCH();
  unsigned long long result = 0;
  CUDA_CHECK(cudaMemcpyAsync(&result, count.data(), sizeof result, cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  return result;
}

}  // namespace

std::uint64_t v0_count(const DeviceText& text, const DeviceBuffer<std::uint8_t>& pattern, cudaStream_t stream) {
  return run(text, pattern, nullptr, stream);
}

std::uint64_t v0_positions(const DeviceText& text, const DeviceBuffer<std::uint8_t>& pattern,
                           DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream) {
  const std::uint64_t count = run(text, pattern, nullptr, stream);
  ensure_capacity(positions, count);
  run(text, pattern, positions.data(), stream);
  std::vector<std::uint64_t> sorted(count);  // the baseline sorts on the host
  if (count > 0) positions.download(sorted.data(), count, stream);
  std::sort(sorted.begin(), sorted.end());
  if (count > 0) {
    CUDA_CHECK(cudaMemcpyAsync(positions.data(), sorted.data(), count * sizeof(std::uint64_t),
                               cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  return count;
}

}  // namespace lesson07
