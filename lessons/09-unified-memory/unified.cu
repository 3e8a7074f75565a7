#include "unified.hpp"

#include <algorithm>
#include <cstdint>

#include "common/cuda_check.hpp"
#include "common/device_info.hpp"

namespace {

constexpr unsigned kThreads = 256;

// The number of zero bytes of x, exactly (Hacker's Delight 6-1): the high bit of each byte of y is set
// when that byte of x is 0, and no carry crosses a byte.
__device__ __forceinline__ unsigned zero_bytes(unsigned x) {
  const unsigned y = ~(((x & 0x7F7F7F7Fu) + 0x7F7F7F7Fu) | x | 0x7F7F7F7Fu);
  return static_cast<unsigned>(__popc(y));
}

// A grid-stride loop over the 16-byte-aligned body of the text (one 16-byte load per step), the bytes
// before and after it by the first threads, a block sum, one atomicAdd per block.
__global__ void count_kernel(const unsigned char* __restrict__ text, std::size_t n, unsigned char byte,
                             unsigned long long* count) {
  const auto address = reinterpret_cast<std::uintptr_t>(text);
  const std::size_t misaligned = (16 - address % 16) % 16;
  const std::size_t head = misaligned < n ? misaligned : n;
  const std::size_t body = (n - head) / 16;
  const std::size_t tail_start = head + 16 * body;
  const auto* words = reinterpret_cast<const uint4*>(text + head);
  const unsigned pattern = byte * 0x01010101u;
  const std::size_t first = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * blockDim.x;
  unsigned long long mine = 0;
  for (std::size_t i = first; i < body; i += stride) {
    const uint4 w = words[i];
    mine +=
        zero_bytes(w.x ^ pattern) + zero_bytes(w.y ^ pattern) + zero_bytes(w.z ^ pattern) + zero_bytes(w.w ^ pattern);
  }
  if (first < head) mine += text[first] == byte;
  if (first < n - tail_start) mine += text[tail_start + first] == byte;

  for (int d = 16; d > 0; d /= 2) mine += __shfl_down_sync(0xffffffffu, mine, d);
  __shared__ unsigned long long warp_sums[kThreads / 32];
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = mine;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned long long block = 0;
    for (unsigned w = 0; w < kThreads / 32; ++w) block += warp_sums[w];
    if (block != 0) atomicAdd(count, block);
  }
}

#if CUDART_VERSION >= 13000
cudaMemLocation memory_location(int location) {
  cudaMemLocation where{};
  where.type = location == kHostLocation ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  where.id = location == kHostLocation ? 0 : location;
  return where;
}
#endif

#if CUDART_VERSION >= 12020
// A location attribute of a range from its type and id attributes (CUDA 12.2 on): a device number,
// kHostLocation, or cudaInvalidDeviceId.
int range_location(const void* p, std::size_t bytes, cudaMemRangeAttribute type_attribute,
                   cudaMemRangeAttribute id_attribute) {
  int type = 0, id = 0;
  CUDA_CHECK(cudaMemRangeGetAttribute(&type, sizeof type, type_attribute, p, bytes));
  CUDA_CHECK(cudaMemRangeGetAttribute(&id, sizeof id, id_attribute, p, bytes));
  switch (type) {
    case cudaMemLocationTypeDevice:
      return id;
    case cudaMemLocationTypeHost:
    case cudaMemLocationTypeHostNuma:
    case cudaMemLocationTypeHostNumaCurrent:
      return kHostLocation;
    default:
      return cudaInvalidDeviceId;
  }
}
#endif

}  // namespace

void enqueue_count(const unsigned char* text, std::size_t n, unsigned char byte, unsigned long long* count,
                   cudaStream_t stream) {
  if (n == 0) return;
  const int sms = cudamatch::current_device_sm_count();
  const std::size_t wanted = (n / 16 + kThreads - 1) / kThreads;
  const auto blocks = static_cast<unsigned>(std::clamp<std::size_t>(wanted, 1, 8 * static_cast<std::size_t>(sms)));
  count_kernel<<<blocks, kThreads, 0, stream>>>(text, n, byte, count);
  CUDA_CHECK_LAUNCH();
}

std::uint64_t count_on_cpu(const unsigned char* text, std::size_t n, unsigned char byte) {
  return static_cast<std::uint64_t>(std::count(text, text + n, byte));
}

bool concurrent_managed_access(int device) {
  int value = 0;
  CUDA_CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrConcurrentManagedAccess, device));
  return value != 0;
}

void prefetch_async(const void* p, std::size_t bytes, int location, cudaStream_t stream) {
#if CUDART_VERSION >= 13000
  CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, memory_location(location), 0, stream));
#else
  CUDA_CHECK(cudaMemPrefetchAsync(p, bytes, location, stream));
#endif
}

void advise(const void* p, std::size_t bytes, cudaMemoryAdvise advice, int location) {
#if CUDART_VERSION >= 13000
  CUDA_CHECK(cudaMemAdvise(p, bytes, advice, memory_location(location)));
#else
  CUDA_CHECK(cudaMemAdvise(p, bytes, advice, location));
#endif
}

int last_prefetch_location(const void* p, std::size_t bytes) {
#if CUDART_VERSION >= 12020
  return range_location(p, bytes, cudaMemRangeAttributeLastPrefetchLocationType,
                        cudaMemRangeAttributeLastPrefetchLocationId);
#else
  int location = cudaInvalidDeviceId;
  CUDA_CHECK(cudaMemRangeGetAttribute(&location, sizeof location, cudaMemRangeAttributeLastPrefetchLocation, p, bytes));
  return location;
#endif
}

int preferred_location(const void* p, std::size_t bytes) {
#if CUDART_VERSION >= 12020
  return range_location(p, bytes, cudaMemRangeAttributePreferredLocationType, cudaMemRangeAttributePreferredLocationId);
#else
  int location = cudaInvalidDeviceId;
  CUDA_CHECK(cudaMemRangeGetAttribute(&location, sizeof location, cudaMemRangeAttributePreferredLocation, p, bytes));
  return location;
#endif
}

bool is_read_mostly(const void* p, std::size_t bytes) {
  int value = 0;
  CUDA_CHECK(cudaMemRangeGetAttribute(&value, sizeof value, cudaMemRangeAttributeReadMostly, p, bytes));
  return value != 0;
}

void return_to_host(const void* p, std::size_t bytes, int device, cudaStream_t stream) {
  if (bytes == 0) return;
  if (!concurrent_managed_access(device)) {  // the driver moves managed memory back at every synchronize
    CUDA_CHECK(cudaDeviceSynchronize());
    return;
  }
  // Unsetting read-mostly collapses the read-only copies into one; the prefetch then moves every page
  // to the host and unmaps it from the GPU, so the next GPU access faults again.
  advise(p, bytes, cudaMemAdviseUnsetReadMostly, device);
  advise(p, bytes, cudaMemAdviseUnsetPreferredLocation, device);
  advise(p, bytes, cudaMemAdviseUnsetAccessedBy, device);
  prefetch_async(p, bytes, kHostLocation, stream);
  CUDA_CHECK(cudaStreamSynchronize(stream));
}

void count_with_copy(const unsigned char* pinned_text, unsigned char* dev_text, std::size_t n, unsigned char byte,
                     unsigned long long* dev_count, unsigned long long* host_count, cudaStream_t stream) {
  CUDA_CHECK(cudaMemsetAsync(dev_count, 0, sizeof *dev_count, stream));
  CUDA_CHECK(cudaMemcpyAsync(dev_text, pinned_text, n, cudaMemcpyHostToDevice, stream));
  enqueue_count(dev_text, n, byte, dev_count, stream);
  CUDA_CHECK(cudaMemcpyAsync(host_count, dev_count, sizeof *dev_count, cudaMemcpyDeviceToHost, stream));
}

void count_managed(const unsigned char* managed_text, std::size_t n, unsigned char byte, unsigned long long* dev_count,
                   unsigned long long* host_count, cudaStream_t stream) {
  CUDA_CHECK(cudaMemsetAsync(dev_count, 0, sizeof *dev_count, stream));
  enqueue_count(managed_text, n, byte, dev_count, stream);
  CUDA_CHECK(cudaMemcpyAsync(host_count, dev_count, sizeof *dev_count, cudaMemcpyDeviceToHost, stream));
}
