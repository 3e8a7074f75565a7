// Lesson 07 - the given histogram with one global atomic per byte, the baseline of your privatized one
// (the rubric's histogram items time it and count its atomics), and histogram_bytes, which runs either.
// Not editable: a submission cannot change the row it is measured against.
#include <cstdint>
#include <stdexcept>
#include <string>

#include "common/cuda_check.hpp"
#include "common/device_info.hpp"
#include "launch_shape.cuh"
#include "reductions.hpp"

namespace cudamatch::lesson07 {

unsigned grid_blocks() {
  const int sms = current_device_sm_count();
  return static_cast<unsigned>(kBlocksPerSm * sms);
}

void require_aligned(const void* p, const char* what) {
  if (reinterpret_cast<std::uintptr_t>(p) % 16 != 0) {
    throw std::invalid_argument(std::string(what) + " must be 16-byte aligned");
  }
}

namespace {

__global__ void histogram_global_kernel(const std::uint8_t* __restrict__ bytes, std::size_t n,
                                        unsigned* __restrict__ bins) {
  for_each_byte(bytes, n, [&](unsigned b) { atomicAdd(&bins[b], 1u); });
}

}  // namespace

void histogram_bytes(HistogramVersion version, const std::uint8_t* bytes, std::size_t n, unsigned* bins,
                     cudaStream_t stream) {
  require_aligned(bytes, "the bytes");
  CUDA_CHECK(cudaMemsetAsync(bins, 0, 256 * sizeof(unsigned), stream));
  if (n == 0) return;
  if (version == HistogramVersion::global_atomics) {
    histogram_global_kernel<<<grid_blocks(), kThreads, 0, stream>>>(bytes, n, bins);
    CUDA_CHECK_LAUNCH();
  } else {
    launch_histogram_private(bytes, n, bins, stream);
  }
}

}  // namespace cudamatch::lesson07
