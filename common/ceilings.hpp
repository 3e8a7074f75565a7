// The ceilings that every figure in the course is quoted against, measured in the same run:
// how fast this GPU can copy device memory, read it, and receive data over PCIe/NVLink, and how long
// one kernel launch takes (the floor below which no timed GPU work can be).
#pragma once

#include <cstddef>

#include "common/buffers.hpp"
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

// The median time of one launch of an empty kernel (one thread) between its own pair of CUDA events,
// timed like any GPU work (warm-up first): no kernel timed with events takes less.
double measure_launch_floor_ms(TimingOptions options = {});

// Evicts what the L2 cache holds by reading a buffer of 4x its size with the kernel of
// measure_device_read_gbps. Between writing a large input on the device and timing a kernel that
// reads it: without it, the last L2-full of the input is still dirty in the cache when the timed
// kernel starts, and its write-back to DRAM is timed with that kernel.
class L2Flush {
 public:
  explicit L2Flush(const DeviceInfo& device);
  // Queues the read in `stream`.
  void enqueue(cudaStream_t stream) const;

 private:
  DeviceBuffer<int4> scratch_;
  DeviceBuffer<int> sink_;
  int blocks_;
};

struct Ceilings {
  double theoretical_gbps = 0.0;
  double device_copy_gbps = 0.0;
  double device_read_gbps = 0.0;
  double launch_floor_ms = 0.0;  // measure_launch_floor_ms
  std::size_t buffer_bytes = 0;
};

// Theoretical, device copy and device read bandwidth of `device` (the current device), and the launch
// floor.
Ceilings measure_ceilings(const DeviceInfo& device);

}  // namespace cudamatch
