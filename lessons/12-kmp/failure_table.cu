// Lesson 12: the failure table on the host, and the block-parallel construction run on its own for
// the tests. Given.
#include "common/buffers.hpp"
#include "common/cuda_check.hpp"
#include "engine/device_text.hpp"
#include "failure_table.cuh"
#include "failure_table.hpp"

namespace cudamatch::lesson12 {

namespace {

constexpr int kThreads = 256;

__global__ void failure_table_kernel(const std::uint8_t* pattern, int m, std::int32_t* next) {
  extern __shared__ std::int32_t tables[];  // next[m + 1], then the m pattern bytes
  build_failure_table(pattern, m, reinterpret_cast<std::uint8_t*>(tables + m + 1), tables);
  for (int i = threadIdx.x; i <= m; i += blockDim.x) next[i] = tables[i];
}

}  // namespace

// The construction of common/matchers/kmp.cpp with int32 entries: j is the border of p[0, i) being
// extended; a mismatch falls back along next[] until p[j] == p[i] or nothing is left (-1).
std::vector<std::int32_t> failure_table(ByteView pattern) {
  std::vector<std::int32_t> table(pattern.size + 1);
  const std::uint8_t* p = pattern.data;
  std::int32_t* next = table.data();
  const auto m = static_cast<std::int32_t>(pattern.size);
  next[0] = -1;
  for (std::int32_t i = 0, j = -1; i < m;) {
    while (j > -1 && p[i] != p[j]) j = next[j];
    ++i;
    ++j;
    next[i] = (i < m && p[i] == p[j]) ? next[j] : j;
  }
  return table;
}

std::vector<std::int32_t> failure_table_on_device(ByteView pattern) {
  const DevicePattern device_pattern(pattern);
  const int m = static_cast<int>(pattern.size);
  DeviceBuffer<std::int32_t> next(pattern.size + 1);
  const std::size_t shared_bytes = (pattern.size + 1) * sizeof(std::int32_t) + pattern.size;
  failure_table_kernel<<<1, kThreads, shared_bytes>>>(device_pattern.data(), m, next.data());
  CUDA_CHECK_LAUNCH();
  std::vector<std::int32_t> host(pattern.size + 1);
  next.download(host.data(), host.size());
  return host;
}

}  // namespace cudamatch::lesson12
