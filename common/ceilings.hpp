// The ceilings that every figure in the course is quoted against, measured in the same run:
// how fast this GPU can copy device memory, read it, and receive data over PCIe/NVLink.
#pragma once

#include <cstddef>

#include "common/device_info.hpp"
#include "common/timing.hpp"

namespace cudamatch {

// A buffer size for bandwidth measurements: at least 16x the L2 cache (so the measurement sees DRAM,
// not the cache) and 1 GiB (so that launch and tail effects are small), at most a quarter of the
// free device memory.
std::size_t ceiling_buffer_bytes(const DeviceInfo& device);

// cudaMemcpy device-to-device of `bytes`; bytes read + bytes written per second, GB/s.
double measure_device_copy_gbps(std::size_t bytes, TimingOptions options = {});

// A grid-stride kernel reading `bytes` with 16-byte loads; bytes read per second, GB/s.
double measure_device_read_gbps(std::size_t bytes, TimingOptions options = {});

// cudaMemcpy host-to-device of `bytes` from pinned memory, GB/s.
double measure_host_to_device_gbps(std::size_t bytes, TimingOptions options = {});

struct Ceilings {
  double theoretical_gbps = 0.0;
  double device_copy_gbps = 0.0;
  double device_read_gbps = 0.0;
  std::size_t buffer_bytes = 0;
};

// Theoretical, device copy and device read bandwidth of `device` (the current device).
Ceilings measure_ceilings(const DeviceInfo& device);

}  // namespace cudamatch
