// Lesson 10: the given pieces of the launch-overhead experiment (graph_search.hpp): the empty kernel,
// the mapped counters and their publish kernel, the pattern slots and their load kernel.
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

#include "common/cuda_check.hpp"
#include "graph_search.hpp"

namespace cudamatch::lesson10 {

namespace {

__global__ void empty_kernel() {}

// Counters to the mapped host memory (host[1 + i]), each set back to zero, then the sequence number
// incremented and written to host[0] once every count is visible to the host.
__global__ void publish_kernel(unsigned long long* counters, std::size_t size, unsigned long long* sequence,
                               volatile unsigned long long* host) {
  for (std::size_t i = threadIdx.x; i < size; i += blockDim.x) {
    host[1 + i] = counters[i];
    counters[i] = 0;
  }
  __threadfence_system();
  __syncthreads();
  if (threadIdx.x == 0) host[0] = ++*sequence;
}

// Pattern p's m bytes from the mapped staging to destinations[p]: one block per pattern.
__global__ void load_kernel(const std::uint8_t* staging, std::size_t m, std::uint8_t* const* destinations) {
  const std::uint8_t* from = staging + blockIdx.x * m;
  std::uint8_t* to = destinations[blockIdx.x];
  for (std::size_t j = threadIdx.x; j < m; j += blockDim.x) to[j] = from[j];
}

}  // namespace

void launch_empty(cudaStream_t stream) {
  empty_kernel<<<1, 1, 0, stream>>>();
  CUDA_CHECK_LAUNCH();
}

MappedCounts::~MappedCounts() {
  if (host_ != nullptr) cudaFreeHost(host_);
}

void MappedCounts::ensure(std::size_t size) {
  if (size <= size_ && host_ != nullptr) return;
  std::size_t grown = 64;
  while (grown < size) grown *= 2;
  device_ = DeviceBuffer<unsigned long long>();
  device_ = DeviceBuffer<unsigned long long>(grown + 1);
  device_.fill_bytes(0);
  if (host_ != nullptr) CUDA_CHECK(cudaFreeHost(host_));
  host_ = nullptr;
  size_ = 0;
  CUDA_CHECK(
      cudaHostAlloc(reinterpret_cast<void**>(&host_), (grown + 1) * sizeof(unsigned long long), cudaHostAllocMapped));
  std::memset(host_, 0, (grown + 1) * sizeof(unsigned long long));
  CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&host_on_device_), host_, 0));
  size_ = grown;
}

void MappedCounts::enqueue_publish(std::size_t size, cudaStream_t stream) const {
  if (size > size_)
    throw std::length_error("MappedCounts: " + std::to_string(size) + " counters of " + std::to_string(size_));
  // The sequence number lives after the last counter of the allocation, whatever `size` is.
  publish_kernel<<<1, 256, 0, stream>>>(device_.data(), size, device_.data() + size_, host_on_device_);
  CUDA_CHECK_LAUNCH();
}

void MappedCounts::poll_until(unsigned long long sequence, cudaStream_t stream, double timeout_s) const {
  const volatile unsigned long long* flag = host_;
  const auto start = std::chrono::steady_clock::now();
  for (unsigned spins = 1; *flag < sequence; ++spins) {
    if (spins % 4096 == 0) {
      const cudaError_t status = cudaStreamQuery(stream);
      if (status != cudaSuccess && status != cudaErrorNotReady) CUDA_CHECK(status);
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > timeout_s) {
        throw std::runtime_error("the counts did not arrive in mapped memory within " + std::to_string(timeout_s) +
                                 " s (was the publish kernel queued?)");
      }
    }
  }
}

PatternSlots::PatternSlots(std::size_t count, std::size_t m) : m_(m), staging_(count * m), destinations_(count) {
  std::vector<std::uint8_t> zeros(m, 0);
  std::vector<std::uint8_t*> where;
  for (std::size_t p = 0; p < count; ++p) {
    slots_.emplace_back(ByteView(zeros.data(), m));
    // The slot's device bytes are overwritten by the load kernel; DevicePattern only reads them.
    where.push_back(const_cast<std::uint8_t*>(slots_.back().data()));
  }
  destinations_.upload(where.data(), count);
  CUDA_CHECK(cudaHostGetDevicePointer(reinterpret_cast<void**>(&staging_on_device_), staging_.data(), 0));
}

void PatternSlots::stage(const std::vector<ByteView>& patterns) {
  if (patterns.size() != count()) throw std::invalid_argument("PatternSlots::stage: wrong number of patterns");
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    if (patterns[p].size != m_) throw std::invalid_argument("PatternSlots::stage: patterns of different lengths");
    std::memcpy(staging_.data() + p * m_, patterns[p].data, m_);
  }
}

void PatternSlots::enqueue_load(cudaStream_t stream) const {
  load_kernel<<<static_cast<unsigned>(count()), 128, 0, stream>>>(staging_on_device_, m_, destinations_.data());
  CUDA_CHECK_LAUNCH();
}

NodeCounts count_nodes(cudaGraph_t graph) {
  std::size_t total = 0;
  CUDA_CHECK(cudaGraphGetNodes(graph, nullptr, &total));
  std::vector<cudaGraphNode_t> nodes(total);
  if (total > 0) CUDA_CHECK(cudaGraphGetNodes(graph, nodes.data(), &total));
  NodeCounts counts;
  for (cudaGraphNode_t node : nodes) {
    cudaGraphNodeType type{};
    CUDA_CHECK(cudaGraphNodeGetType(node, &type));
    (type == cudaGraphNodeTypeKernel ? counts.kernels : counts.others) += 1;
  }
  return counts;
}

}  // namespace cudamatch::lesson10
