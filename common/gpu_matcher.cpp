#include "common/gpu_matcher.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/brute_force.hpp"
#include "common/search_scratch.hpp"

namespace cudamatch {

const GpuVersion& GpuAlgorithm::version(int number) const {
  if (number < 0 || static_cast<std::size_t>(number) >= versions.size()) {
    throw std::out_of_range(std::string(algorithm_name(algorithm)) + " has versions v0 to v" +
                            std::to_string(versions.size() - 1) + " on the GPU, not v" + std::to_string(number));
  }
  return versions[static_cast<std::size_t>(number)];
}

namespace {

// Whether a search needs to run at all (throws for the empty pattern).
bool worth_searching(const DeviceText& text, const DevicePattern& pattern) {
  if (pattern.size() == 0) throw EmptyPatternError();
  return pattern.size() <= text.size();
}

}  // namespace

std::uint64_t gpu_count(const GpuVersion& version, const DeviceText& text, const DevicePattern& pattern,
                        cudaStream_t stream) {
  return gpu_count_batch(version, text, {&pattern}, stream).front();
}

std::vector<std::uint64_t> gpu_count_batch(const GpuVersion& version, const DeviceText& text,
                                           const std::vector<const DevicePattern*>& patterns, cudaStream_t stream) {
  std::vector<std::uint64_t> counts(patterns.size(), 0);
  if (patterns.empty()) return counts;
  auto* device_counts = scratch<unsigned long long>(ScratchSlot::counters, patterns.size());
  CUDA_CHECK(cudaMemsetAsync(device_counts, 0, patterns.size() * sizeof(unsigned long long), stream));
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    if (worth_searching(text, *patterns[p])) version.enqueue_count(text, *patterns[p], device_counts + p, stream);
  }
  unsigned long long* host = pinned_readback(patterns.size());
  CUDA_CHECK(cudaMemcpyAsync(host, device_counts, patterns.size() * sizeof(unsigned long long),
                             cudaMemcpyDeviceToHost, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));
  for (std::size_t p = 0; p < patterns.size(); ++p) counts[p] = host[p];
  return counts;
}

std::uint64_t gpu_positions(const GpuVersion& version, const DeviceText& text, const DevicePattern& pattern,
                            DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream) {
  if (!worth_searching(text, pattern)) return 0;
  return version.positions(text, pattern, positions, stream);
}

void ensure_capacity(DeviceBuffer<std::uint64_t>& positions, std::uint64_t count) {
  if (positions.size() >= count) return;
  try {
    positions = DeviceBuffer<std::uint64_t>();
    positions = DeviceBuffer<std::uint64_t>(count);
  } catch (const CudaError& e) {
    throw std::runtime_error(std::to_string(count) + " occurrences need " +
                             std::to_string(count * sizeof(std::uint64_t) >> 20) +
                             " MiB of device memory for their positions: " + e.what() + " (count mode needs none)");
  }
}

std::uint64_t positions_sorted_on_host(const std::function<void(unsigned long long*, std::uint64_t*)>& search,
                                       DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream) {
  auto* counter = scratch<unsigned long long>(ScratchSlot::counters, 1);
  unsigned long long* host = pinned_readback(1);
  const auto run = [&](std::uint64_t* out) {
    CUDA_CHECK(cudaMemsetAsync(counter, 0, sizeof *counter, stream));
    search(counter, out);
    CUDA_CHECK(cudaMemcpyAsync(host, counter, sizeof *host, cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
    return std::uint64_t{*host};
  };
  const std::uint64_t count = run(nullptr);
  if (count == 0) return 0;
  ensure_capacity(positions, count);
  run(positions.data());
  std::vector<std::uint64_t> sorted(count);
  positions.download(sorted.data(), count, stream);
  std::sort(sorted.begin(), sorted.end());
  positions.upload(sorted.data(), count, stream);
  return count;
}

}  // namespace cudamatch
