// What the GPU is: the figures every lesson's table is measured against.
#pragma once

#include <cstddef>
#include <string>

namespace cudamatch {

struct DeviceInfo {
  int index = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  std::size_t l2_bytes = 0;
  std::size_t global_memory_bytes = 0;
  std::size_t shared_memory_per_block_optin = 0;
  int memory_clock_khz = 0;  // peak memory clock as the driver reports it
  int memory_bus_bits = 0;

  // Peak DRAM bandwidth in GB/s (1e9 bytes/s): clock x bus width in bytes x 2 transfers per clock
  // (double data rate). Nothing measured ever exceeds it; well-written kernels reach 80-95%.
  double theoretical_bandwidth_gbps() const;
};

// How many CUDA devices this process can use. With none, `reason` says why in words a user can act
// on (no device, no driver, driver too old, ...).
struct DeviceAvailability {
  int count = 0;
  std::string reason;
};
DeviceAvailability cuda_devices();

// Properties of one device; throws CudaError when the device cannot be queried.
DeviceInfo query_device(int device = 0);

// The number of SMs of the current device (what grid-stride launches size their grids by); throws
// CudaError when it cannot be queried.
int current_device_sm_count();

}  // namespace cudamatch
