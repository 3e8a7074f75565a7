// A text and a pattern on the device for the matchers.
//
// DeviceText pads its allocation with zero bytes to the next multiple of 16 plus 16, so a kernel may
// load the 16-byte vector that holds the text's last byte, and the one after it, without reading
// memory it does not own. (The padding never matches: every kernel checks i + m <= n.)
//
// DevicePattern keeps the host copy beside the device one: the host builds the tables of the
// baselines from it, and the launchers read the length and the first bytes without a copy back.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/buffers.hpp"
#include "common/byte_view.hpp"
#include "common/cuda_check.hpp"

namespace cudamatch {

class DeviceText {
 public:
  explicit DeviceText(ByteView host, cudaStream_t stream = nullptr)
      : buffer_(allocation_bytes(host.size)), size_(host.size) {
    buffer_.fill_bytes(0);
    if (size_ > 0) buffer_.upload(host.data, size_, stream);
  }
  // An empty text with room for `capacity` bytes, refilled with assign_async (or written on the device
  // after resize_async): one allocation for a window that carries chunk after chunk of a stream
  // (lesson 17), or for fresh input after fresh input (common/device_rotation.hpp).
  static DeviceText with_capacity(std::size_t capacity) { return DeviceText(capacity); }
  // The device memory a text of `size` bytes takes: up to the end of its zero padding, the next
  // multiple of 16 plus 16.
  static std::size_t allocation_bytes(std::size_t size) { return (size + 15) / 16 * 16 + 16; }

  // Queues in `stream` the copy of `host` (at most capacity() bytes; from pinned memory the copy engine
  // overlaps it with the host's work) and the zeros of the padding after it; the text then has
  // host.size bytes. Throws std::length_error beyond the capacity.
  void assign_async(ByteView host, cudaStream_t stream) {
    std::uint8_t* bytes = resize_async(host.size, stream);
    if (host.size > 0) CUDA_CHECK(cudaMemcpyAsync(bytes, host.data, host.size, cudaMemcpyHostToDevice, stream));
  }
  // For texts written on the device: the text has `size` bytes (at most capacity()) from now on, the
  // zeros of the padding after them are queued in `stream`, and the returned pointer is where the
  // caller's kernel, queued after this in `stream`, writes bytes [0, size). Throws std::length_error
  // beyond the capacity.
  std::uint8_t* resize_async(std::size_t size, cudaStream_t stream) {
    if (size > capacity()) {
      throw std::length_error("DeviceText: " + std::to_string(size) + " bytes into a text of " +
                              std::to_string(capacity()));
    }
    CUDA_CHECK(cudaMemsetAsync(buffer_.data() + size, 0, allocation_bytes(size) - size, stream));
    size_ = size;
    return buffer_.data();
  }

  const std::uint8_t* data() const { return buffer_.data(); }
  std::size_t size() const { return size_; }
  std::size_t padded_size() const { return buffer_.size(); }
  std::size_t capacity() const { return buffer_.size() - 16; }

 private:
  explicit DeviceText(std::size_t capacity) : buffer_(allocation_bytes(capacity)), size_(0) { buffer_.fill_bytes(0); }

  DeviceBuffer<std::uint8_t> buffer_;
  std::size_t size_;
};

class DevicePattern {
 public:
  explicit DevicePattern(ByteView host, cudaStream_t stream = nullptr)
      : host_(host.data, host.data + host.size), device_(host.size + 16) {
    device_.fill_bytes(0);
    if (host.size > 0) device_.upload(host.data, host.size, stream);
  }
  const std::uint8_t* data() const { return device_.data(); }
  std::size_t size() const { return host_.size(); }
  const std::vector<std::uint8_t>& host() const { return host_; }

 private:
  std::vector<std::uint8_t> host_;
  DeviceBuffer<std::uint8_t> device_;  // zero-padded by 16 bytes, like the text
};

}  // namespace cudamatch
