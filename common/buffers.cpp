#include "common/buffers.hpp"

#include <sstream>

namespace cudamatch {

namespace {
std::string mib(std::size_t bytes) {
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(1);
  out << static_cast<double>(bytes) / (1024.0 * 1024.0) << " MiB";
  return out.str();
}
}  // namespace

void* device_allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* ptr = nullptr;
  const cudaError_t status = cudaMalloc(&ptr, bytes);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();  // not sticky: clear it so the caller can recover
    std::size_t free_bytes = 0, total_bytes = 0;
    cudaMemGetInfo(&free_bytes, &total_bytes);
    throw CudaError(
        status,
        ("cudaMalloc of " + mib(bytes) + " (GPU has " + mib(free_bytes) + " free of " + mib(total_bytes) + ")").c_str(),
        __FILE__, __LINE__);
  }
  cuda_check(status, "cudaMalloc", __FILE__, __LINE__);
  return ptr;
}

void* pinned_allocate(std::size_t bytes) {
  if (bytes == 0) return nullptr;
  void* ptr = nullptr;
  CUDA_CHECK(cudaMallocHost(&ptr, bytes));
  return ptr;
}

}  // namespace cudamatch
