#include "common/device_info.hpp"

#include "common/cuda_check.hpp"

namespace cudamatch {

double DeviceInfo::theoretical_bandwidth_gbps() const {
  return 2.0 * static_cast<double>(memory_clock_khz) * 1e3 * (memory_bus_bits / 8.0) / 1e9;
}

DeviceAvailability cuda_devices() {
  DeviceAvailability result;
  const cudaError_t status = cudaGetDeviceCount(&result.count);
  if (status != cudaSuccess) {
    result.count = 0;
    if (status == cudaErrorInsufficientDriver) {
      int runtime = 0;
      cudaRuntimeGetVersion(&runtime);
      result.reason = "the NVIDIA driver is not installed or is older than this program's CUDA runtime " +
                      std::to_string(runtime / 1000) + "." + std::to_string(runtime % 1000 / 10);
    } else {
      result.reason = cudaGetErrorString(status);
    }
    result.reason += std::string(" (") + cudaGetErrorName(status) + ")";
    cudaGetLastError();  // clear the error so later calls start clean
  } else if (result.count == 0) {
    result.reason = "the CUDA driver reports no devices";
  }
  return result;
}

DeviceInfo query_device(int device) {
  cudaDeviceProp prop{};
  CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
  DeviceInfo info;
  info.index = device;
  info.name = prop.name;
  info.cc_major = prop.major;
  info.cc_minor = prop.minor;
  info.sm_count = prop.multiProcessorCount;
  info.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  info.global_memory_bytes = prop.totalGlobalMem;
  info.shared_memory_per_block_optin = prop.sharedMemPerBlockOptin;
  // The clock and bus width left cudaDeviceProp in CUDA 13; the attributes remain.
  CUDA_CHECK(cudaDeviceGetAttribute(&info.memory_clock_khz, cudaDevAttrMemoryClockRate, device));
  CUDA_CHECK(cudaDeviceGetAttribute(&info.memory_bus_bits, cudaDevAttrGlobalMemoryBusWidth, device));
  return info;
}

int current_device_sm_count() {
  int device = 0, sms = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  return sms;
}

}  // namespace cudamatch
