// Lesson 07 - CUB's device-wide sum and exclusive sum: the rows the lesson's kernels are held against.
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include <algorithm>
#include <climits>
#include <stdexcept>

#include "common/cuda_check.hpp"
#include "reductions.hpp"

namespace cudamatch::lesson07 {

namespace {

int items(std::size_t n) {
  if (n > INT_MAX) throw std::invalid_argument("the CUB rows take at most 2^31 - 1 elements");
  return static_cast<int>(n);
}

}  // namespace

std::size_t cub_temp_bytes(std::size_t n) {
  std::size_t reduce_bytes = 0, scan_bytes = 0;
  const unsigned* in = nullptr;
  unsigned* out = nullptr;
  CUDA_CHECK(cub::DeviceReduce::Sum(nullptr, reduce_bytes, in, out, items(n)));
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, in, out, items(n)));
  return std::max<std::size_t>({reduce_bytes, scan_bytes, 1});
}

void cub_sum(const unsigned* in, std::size_t n, unsigned* sum, void* temp, std::size_t temp_bytes,
             cudaStream_t stream) {
  CUDA_CHECK(cub::DeviceReduce::Sum(temp, temp_bytes, in, sum, items(n), stream));
}

void cub_exclusive_sum(const unsigned* in, unsigned* out, std::size_t n, void* temp, std::size_t temp_bytes,
                       cudaStream_t stream) {
  CUDA_CHECK(cub::DeviceScan::ExclusiveSum(temp, temp_bytes, in, out, items(n), stream));
}

}  // namespace cudamatch::lesson07
