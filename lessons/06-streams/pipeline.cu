#include "pipeline.hpp"

#include "common/cuda_check.hpp"

namespace {

constexpr std::uint32_t kMultiplier = 1664525u;  // Numerical Recipes' 32-bit LCG
constexpr std::uint32_t kIncrement = 1013904223u;

__global__ void compute_kernel(const std::uint32_t* __restrict__ in, std::uint32_t* __restrict__ out, std::size_t n,
                               int iterations) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= n) return;
  std::uint32_t v = in[i];
  for (int k = 0; k < iterations; ++k) v = v * kMultiplier + kIncrement;
  out[i] = v;
}

}  // namespace

std::vector<Chunk> split_into_chunks(std::size_t n, std::size_t chunk) {
  std::vector<Chunk> chunks;
  for (std::size_t first = 0; first < n; first += chunk) chunks.push_back({first, std::min(chunk, n - first)});
  return chunks;
}

std::uint32_t compute_reference(std::uint32_t value, int iterations) {
  for (int k = 0; k < iterations; ++k) value = value * kMultiplier + kIncrement;
  return value;
}

Pipeline::Pipeline(const std::uint32_t* host_in, std::uint32_t* host_out, std::uint32_t* dev_in, std::uint32_t* dev_out,
                   int iterations, Timeline* timeline)
    : host_in_(host_in),
      host_out_(host_out),
      dev_in_(dev_in),
      dev_out_(dev_out),
      iterations_(iterations),
      timeline_(timeline) {}

void Pipeline::copy_to_device(const Chunk& chunk, cudaStream_t stream) {
  if (timeline_) timeline_->begin(stream, 'H');
  CUDA_CHECK(cudaMemcpyAsync(dev_in_ + chunk.first, host_in_ + chunk.first, chunk.count * sizeof(std::uint32_t),
                             cudaMemcpyHostToDevice, stream));
  if (timeline_) timeline_->end(stream);
}

void Pipeline::compute(const Chunk& chunk, cudaStream_t stream) {
  if (chunk.count == 0) return;
  if (timeline_) timeline_->begin(stream, 'K');
  const unsigned threads = 256;
  const auto blocks = static_cast<unsigned>((chunk.count + threads - 1) / threads);
  compute_kernel<<<blocks, threads, 0, stream>>>(dev_in_ + chunk.first, dev_out_ + chunk.first, chunk.count,
                                                 iterations_);
  CUDA_CHECK_LAUNCH();
  if (timeline_) timeline_->end(stream);
}

void Pipeline::copy_to_host(const Chunk& chunk, cudaStream_t stream) {
  if (timeline_) timeline_->begin(stream, 'D');
  CUDA_CHECK(cudaMemcpyAsync(host_out_ + chunk.first, dev_out_ + chunk.first, chunk.count * sizeof(std::uint32_t),
                             cudaMemcpyDeviceToHost, stream));
  if (timeline_) timeline_->end(stream);
}
