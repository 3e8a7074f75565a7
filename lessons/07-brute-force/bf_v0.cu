// Lesson 07, v0: the direct port, the baseline the optimized versions are measured against. Given.
// One thread per text position compares the pattern byte by byte in global memory and reports a
// match with a global atomic. Positions arrive in whatever order the threads ran, so the host sorts
// them afterwards.
#include "common/cuda_check.hpp"
#include "versions.hpp"

namespace lesson07 {

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
  const unsigned long long slot = atomicAdd(count, 1ull);
  if (positions != nullptr) positions[slot] = i;
}

void search(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, std::uint64_t* positions,
            cudaStream_t stream) {
  const std::size_t candidates = text.size() - pattern.size() + 1;
  const auto blocks = static_cast<unsigned>((candidates + kThreads - 1) / kThreads);
  bf_v0_kernel<<<blocks, kThreads, 0, stream>>>(text.data(), text.size(), pattern.data(), pattern.size(), count,
                                                positions);
  CUDA_CHECK_LAUNCH();
}

}  // namespace

void v0_count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count, cudaStream_t stream) {
  search(text, pattern, count, nullptr, stream);
}

std::uint64_t v0_positions(const DeviceText& text, const DevicePattern& pattern, DeviceBuffer<std::uint64_t>& positions,
                           cudaStream_t stream) {
  return cudamatch::positions_sorted_on_host(
      [&](unsigned long long* count, std::uint64_t* out) { search(text, pattern, count, out, stream); }, positions,
      stream);
}

}  // namespace lesson07
