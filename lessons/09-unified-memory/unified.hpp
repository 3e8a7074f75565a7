// Lesson 09 - unified memory. One kernel, a byte count over a text, fed three ways: from device memory
// filled by an explicit copy from pinned host memory (the baseline), from managed memory the GPU finds
// on the host and pulls over page by page as it faults, and from managed memory prefetched to the GPU
// with access advice (prepare.cu, the student's). The managed-memory calls changed their signature in
// CUDA 13 (a cudaMemLocation where CUDA 12 took a device number); the wrappers below take a device
// number, or kHostLocation, on either toolkit.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "common/buffers.hpp"

// --- managed memory: one pointer, valid on the host and on every GPU ---

struct ManagedMemory {
  static void* allocate(std::size_t bytes) {
    void* p = nullptr;
    CUDA_CHECK(cudaMallocManaged(&p, bytes == 0 ? 1 : bytes));
    return p;
  }
  static void release(void* p) noexcept { cudaFree(p); }
};
template <class T>
using ManagedBuffer = cudamatch::Buffer<T, ManagedMemory>;

// --- the kernel (unified.cu, given) ---

// Queues the count of the bytes of text[0, n) equal to `byte`, added to *count (device memory, or
// managed) in `stream`. Any alignment, any n (0 queues nothing); one atomicAdd per block.
void enqueue_count(const unsigned char* text, std::size_t n, unsigned char byte, unsigned long long* count,
                   cudaStream_t stream);

// The CPU reference.
std::uint64_t count_on_cpu(const unsigned char* text, std::size_t n, unsigned char byte);

// --- managed memory on CUDA 12 and 13 (unified.cu, given) ---

// Where a prefetch or an advice points: a device number, or the host.
constexpr int kHostLocation = cudaCpuDeviceId;  // -1

// Whether `device` can access managed memory while the CPU does too (cudaDevAttrConcurrentManagedAccess):
// 1 on Linux since Pascal; 0 on Windows, under WSL and before Pascal. Without it, prefetches and advice
// fail, the GPU never faults on a page (the driver moves every managed allocation before each launch),
// and a managed working set cannot be larger than the GPU's memory.
bool concurrent_managed_access(int device);

// cudaMemPrefetchAsync of [p, p + bytes) to `location` (a device, or kHostLocation), queued in `stream`.
void prefetch_async(const void* p, std::size_t bytes, int location, cudaStream_t stream);
// cudaMemAdvise of [p, p + bytes). `location` matters for SetPreferredLocation and SetAccessedBy only.
void advise(const void* p, std::size_t bytes, cudaMemoryAdvise advice, int location);

// What the driver records of a range (cudaMemRangeGetAttribute). Location: a device number,
// kHostLocation, or cudaInvalidDeviceId (-2: none, or not the same for the whole range).
int last_prefetch_location(const void* p, std::size_t bytes);
int preferred_location(const void* p, std::size_t bytes);
bool is_read_mostly(const void* p, std::size_t bytes);

// Puts a managed range back where a host program that has just written it leaves it: no advice, every
// page on the host, none mapped on `device`. Waits for it. What each timed run of a managed version
// starts from.
void return_to_host(const void* p, std::size_t bytes, int device, cudaStream_t stream);

// --- the versions (unified.cu, given; they call prepare.cu's functions) ---

// The baseline: copy the text from pinned host memory to device memory, count there, copy the count
// back. `dev_count` is device memory, `host_count` pinned host memory.
void count_with_copy(const unsigned char* pinned_text, unsigned char* dev_text, std::size_t n, unsigned char byte,
                     unsigned long long* dev_count, unsigned long long* host_count, cudaStream_t stream);

// Counts managed text wherever its pages are, and copies the count back: on a page the GPU does not
// have, it faults, and the driver migrates the page (and its neighbours) before the access retries.
void count_managed(const unsigned char* managed_text, std::size_t n, unsigned char byte, unsigned long long* dev_count,
                   unsigned long long* host_count, cudaStream_t stream);

// --- the student's (prepare.cu) ---

// Step 1. Prepares managed text [text, text + n), written by the host, for kernels on `device` that
// only read it: read-mostly advice, then a prefetch of the whole range to `device`, queued in `stream`.
// Returns false and does nothing where the device lacks concurrentManagedAccess.
bool prepare_for_gpu(const unsigned char* text, std::size_t n, int device, cudaStream_t stream);

// Step 2. Counts managed text larger than the GPU's free memory chunk by chunk: each chunk of
// `chunk_bytes` (the last may be shorter) is advised read-mostly and prefetched in `prefetch_stream`
// while the previous chunk is counted in `compute_stream`; the prefetch of chunk i waits until the
// count of chunk i - 2 is done, so at most three chunks are wanted on the GPU at any time. Adds to
// *dev_count. The caller orders the two streams around the call (fork and join). Returns false, after
// counting the whole text with one launch, where the device lacks concurrentManagedAccess.
bool count_in_chunks(const unsigned char* text, std::size_t n, unsigned char byte, std::size_t chunk_bytes, int device,
                     unsigned long long* dev_count, cudaStream_t compute_stream, cudaStream_t prefetch_stream);
