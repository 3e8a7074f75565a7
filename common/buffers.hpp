// RAII owners for device memory, pinned host memory, events and streams. Move-only; release in
// the destructor (never throwing there).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <utility>

#include "common/cuda_check.hpp"

namespace cudamatch {

// Raw allocation with a clear out-of-memory message: how much was asked for and how much was free.
void* device_allocate(std::size_t bytes);
void* pinned_allocate(std::size_t bytes);

struct DeviceMemory {
  static void* allocate(std::size_t bytes) { return device_allocate(bytes); }
  static void release(void* p) noexcept { cudaFree(p); }
};

// Page-locked host memory: the only host memory the copy engines can read and write while kernels
// run (lesson 06).
struct PinnedMemory {
  static void* allocate(std::size_t bytes) { return pinned_allocate(bytes); }
  static void release(void* p) noexcept { cudaFreeHost(p); }
};

// `count` elements of T in the memory `Memory` allocates.
template <class T, class Memory>
class Buffer {
 public:
  Buffer() = default;
  explicit Buffer(std::size_t count) : data_(static_cast<T*>(Memory::allocate(count * sizeof(T)))), size_(count) {}
  ~Buffer() { reset(); }
  Buffer(Buffer&& other) noexcept : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  Buffer& operator=(Buffer&& other) noexcept {
    if (this != &other) {
      reset();
      data_ = std::exchange(other.data_, nullptr);
      size_ = std::exchange(other.size_, 0);
    }
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  T* data() const { return data_; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }

 private:
  void reset() noexcept {
    if (data_ != nullptr) Memory::release(data_);
    data_ = nullptr;
    size_ = 0;
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

template <class T>
class DeviceBuffer : public Buffer<T, DeviceMemory> {
 public:
  using Buffer<T, DeviceMemory>::Buffer;

  void upload(const T* host, std::size_t count, cudaStream_t stream = nullptr) {
    CUDA_CHECK(cudaMemcpyAsync(this->data(), host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  void download(T* host, std::size_t count, cudaStream_t stream = nullptr) const {
    CUDA_CHECK(cudaMemcpyAsync(host, this->data(), count * sizeof(T), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));
  }
  // Every byte set to `value`: the poison that makes an unwritten output visible. Finished when it
  // returns: cudaMemset runs in the legacy default stream, which does not order itself with the
  // non-blocking streams of CudaStream, so without the wait the poison could land after a kernel's
  // output (seen on a GPU shared by parallel test processes: lesson 06's outputs read back as poison).
  void fill_bytes(int value) {
    if (this->size() == 0) return;
    CUDA_CHECK(cudaMemset(this->data(), value, this->bytes()));
    CUDA_CHECK(cudaStreamSynchronize(cudaStreamLegacy));
  }
};

template <class T>
class PinnedBuffer : public Buffer<T, PinnedMemory> {
 public:
  using Buffer<T, PinnedMemory>::Buffer;
  T& operator[](std::size_t i) const { return this->data()[i]; }
};

// Owns one CUDA handle (an event, a stream), destroyed with `destroy` when it goes (the error, if
// any, ignored: this runs in destructors). Move-constructible only, like the owners below.
template <class Handle, cudaError_t (*destroy)(Handle)>
class UniqueHandle {
 public:
  UniqueHandle() = default;
  ~UniqueHandle() {
    if (handle_ != nullptr) destroy(handle_);
  }
  UniqueHandle(UniqueHandle&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  UniqueHandle& operator=(UniqueHandle&&) = delete;
  UniqueHandle(const UniqueHandle&) = delete;
  UniqueHandle& operator=(const UniqueHandle&) = delete;

  Handle get() const { return handle_; }
  // Where the create call writes the new handle.
  Handle* out() { return &handle_; }

 private:
  Handle handle_ = nullptr;
};

class CudaEvent {
 public:
  CudaEvent() { CUDA_CHECK(cudaEventCreate(event_.out())); }

  cudaEvent_t get() const { return event_.get(); }
  void record(cudaStream_t stream = nullptr) { CUDA_CHECK(cudaEventRecord(get(), stream)); }
  // Milliseconds from `start` to this event; waits for this event to complete.
  float elapsed_ms_since(const CudaEvent& start) const {
    CUDA_CHECK(cudaEventSynchronize(get()));
    float ms = 0.0f;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start.get(), get()));
    return ms;
  }

 private:
  UniqueHandle<cudaEvent_t, cudaEventDestroy> event_;
};

class CudaStream {
 public:
  CudaStream() { CUDA_CHECK(cudaStreamCreateWithFlags(stream_.out(), cudaStreamNonBlocking)); }

  cudaStream_t get() const { return stream_.get(); }
  void synchronize() const { CUDA_CHECK(cudaStreamSynchronize(get())); }

 private:
  UniqueHandle<cudaStream_t, cudaStreamDestroy> stream_;
};

}  // namespace cudamatch
