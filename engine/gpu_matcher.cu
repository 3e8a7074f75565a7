#include "engine/gpu_matcher.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/brute_force.hpp"
#include "engine/search_scratch.hpp"

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

namespace {

// Copies the counters to host memory the GPU writes directly (mapped pinned memory) and sets them
// back to zero for the next search: one small launch instead of a memset before the search and a
// copy after it (each a separate call with its own latency, on a path that takes microseconds).
__global__ void publish_counts(unsigned long long* counts, std::size_t size, unsigned long long* host) {
  for (std::size_t i = threadIdx.x; i < size; i += blockDim.x) {
    host[i] = counts[i];
    counts[i] = 0;
  }
}

// Per host thread: counters that are zero between searches, and their mapped host copy.
class CountSlots {
 public:
  CountSlots() = default;
  CountSlots(const CountSlots&) = delete;
  CountSlots& operator=(const CountSlots&) = delete;
  ~CountSlots() {
    if (host_ != nullptr) cudaFreeHost(host_);
  }

  void ensure(std::size_t size) {
    if (size <= size_) return;
    std::size_t grown = 64;
    while (grown < size) grown *= 2;
    device_ = DeviceBuffer<unsigned long long>();
    device_ = DeviceBuffer<unsigned long long>(grown);
    device_.fill_bytes(0);
    if (host_ != nullptr) CUDA_CHECK(cudaFreeHost(host_));
    host_ = nullptr;
    size_ = 0;
    CUDA_CHECK(
        cudaHostAlloc(reinterpret_cast<void**>(&host_), grown * sizeof(unsigned long long), cudaHostAllocMapped));
    CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&host_on_device_), host_, 0));
    size_ = grown;
  }
  unsigned long long* device() const { return device_.data(); }
  const unsigned long long* host() const { return host_; }
  unsigned long long* host_on_device() const { return host_on_device_; }

 private:
  DeviceBuffer<unsigned long long> device_;
  unsigned long long* host_ = nullptr;
  unsigned long long* host_on_device_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace

std::vector<std::uint64_t> gpu_count_batch(const GpuVersion& version, const DeviceText& text,
                                           const std::vector<const DevicePattern*>& patterns, cudaStream_t stream) {
  std::vector<std::uint64_t> counts(patterns.size(), 0);
  if (patterns.empty()) return counts;
  thread_local CountSlots slots;
  slots.ensure(patterns.size());
  try {
    for (std::size_t p = 0; p < patterns.size(); ++p) {
      if (worth_searching(text, *patterns[p])) version.enqueue_count(text, *patterns[p], slots.device() + p, stream);
    }
  } catch (...) {
    cudaMemsetAsync(slots.device(), 0, patterns.size() * sizeof(unsigned long long),
                    stream);  // zero for the next search
    throw;
  }
  publish_counts<<<1, 256, 0, stream>>>(slots.device(), patterns.size(), slots.host_on_device());
  CUDA_CHECK_LAUNCH();
  CUDA_CHECK(cudaStreamSynchronize(stream));
  for (std::size_t p = 0; p < patterns.size(); ++p) counts[p] = slots.host()[p];
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

std::uint64_t positions_sorted_on_host(UnorderedSearch search, const DeviceText& text, const DevicePattern& pattern,
                                       DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream) {
  auto* counter = scratch<unsigned long long>(ScratchSlot::counters, 1);
  unsigned long long* host = pinned_readback(1);
  const auto run = [&](std::uint64_t* out) {
    CUDA_CHECK(cudaMemsetAsync(counter, 0, sizeof *counter, stream));
    search(text, pattern, counter, out, stream);
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
