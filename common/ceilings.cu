#include "common/ceilings.hpp"

#include <algorithm>
#include <cstdint>

#include "common/bandwidth.hpp"
#include "common/buffers.hpp"
#include "common/device_info.hpp"

namespace cudamatch {

namespace {

// Reads every int4 of `data` once and folds it into a register. Each thread issues kUnroll
// independent 16-byte loads before using any of them, so that enough bytes are in flight to cover the
// DRAM latency. The result is stored only when it equals a value it practically never takes, so the
// compiler must keep every load but the kernel writes nothing: the time is the read alone.
constexpr int kUnroll = 4;

__global__ void read_only_kernel(const int4* __restrict__ data, std::size_t count, int* sink) {
  int acc = 0;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  for (std::size_t base = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x; base < count;
       base += kUnroll * stride) {
    int4 v[kUnroll];
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) {
      const std::size_t i = base + u * stride;
      v[u] = i < count ? data[i] : make_int4(0, 0, 0, 0);
    }
#pragma unroll
    for (int u = 0; u < kUnroll; ++u) acc ^= v[u].x ^ v[u].y ^ v[u].z ^ v[u].w;
  }
  if (acc == 0x5eed5eed) *sink = acc;
}

__global__ void empty_kernel() {}

// The grid of read_only_kernel: 2048 threads per SM, one full wave on every GPU since sm_75.
constexpr int kReadThreads = 256;
int read_blocks(int sm_count) { return sm_count * 8; }

// Queues one read of every element of `data` in `stream`.
void enqueue_read(const DeviceBuffer<int4>& data, const DeviceBuffer<int>& sink, int blocks, cudaStream_t stream) {
  read_only_kernel<<<blocks, kReadThreads, 0, stream>>>(data.data(), data.size(), sink.data());
  CUDA_CHECK_LAUNCH();
}

}  // namespace

std::size_t ceiling_buffer_bytes(const DeviceInfo& device) {
  std::size_t free_bytes = 0, total_bytes = 0;
  CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t wanted = std::max<std::size_t>(16 * device.l2_bytes, kGiB);
  return std::min(wanted, free_bytes / 4) & ~std::size_t{0xFFFF};
}

double measure_device_copy_gbps(std::size_t bytes, TimingOptions options) {
  DeviceBuffer<std::uint8_t> src(bytes), dst(bytes);
  src.fill_bytes(0xA5);
  const TimingStats t = time_on_gpu(
      [&](cudaStream_t s) { CUDA_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, s)); },
      options);
  return gb_per_s(2 * static_cast<std::uint64_t>(bytes), t.median_ms);
}

double measure_device_read_gbps(std::size_t bytes, TimingOptions options) {
  const std::size_t count = bytes / sizeof(int4);
  DeviceBuffer<int4> data(count);
  DeviceBuffer<int> sink(1);
  data.fill_bytes(0x5A);
  const int sms = current_device_sm_count();
  const TimingStats t = time_on_gpu([&](cudaStream_t s) { enqueue_read(data, sink, read_blocks(sms), s); }, options);
  return gb_per_s(count * sizeof(int4), t.median_ms);
}

double measure_launch_floor_ms(TimingOptions options) {
  return time_on_gpu(
             [](cudaStream_t s) {
               empty_kernel<<<1, 1, 0, s>>>();
               CUDA_CHECK_LAUNCH();
             },
             options)
      .median_ms;
}

L2Flush::L2Flush(const DeviceInfo& device)
    : scratch_(4 * device.l2_bytes / sizeof(int4) + 1), sink_(1), blocks_(read_blocks(device.sm_count)) {
  scratch_.fill_bytes(0x5A);
}

void L2Flush::enqueue(cudaStream_t stream) const { enqueue_read(scratch_, sink_, blocks_, stream); }

double measure_host_to_device_gbps(std::size_t bytes, TimingOptions options) {
  PinnedBuffer<std::uint8_t> host(bytes);
  std::fill(host.data(), host.data() + bytes, std::uint8_t{0x3C});
  DeviceBuffer<std::uint8_t> device(bytes);
  const TimingStats t = time_on_gpu(
      [&](cudaStream_t s) {
        CUDA_CHECK(cudaMemcpyAsync(device.data(), host.data(), bytes, cudaMemcpyHostToDevice, s));
      },
      options);
  return gb_per_s(bytes, t.median_ms);
}

Ceilings measure_ceilings(const DeviceInfo& device) {
  Ceilings c;
  c.theoretical_gbps = device.theoretical_bandwidth_gbps();
  c.buffer_bytes = ceiling_buffer_bytes(device);
  c.device_copy_gbps = measure_device_copy_gbps(c.buffer_bytes);
  c.device_read_gbps = measure_device_read_gbps(c.buffer_bytes);
  c.launch_floor_ms = measure_launch_floor_ms();
  return c;
}

}  // namespace cudamatch
