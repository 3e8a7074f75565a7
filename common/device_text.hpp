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
#include <vector>

#include "common/buffers.hpp"
#include "common/byte_view.hpp"

namespace cudamatch {

class DeviceText {
 public:
  explicit DeviceText(ByteView host, cudaStream_t stream = nullptr)
      : buffer_((host.size + 15) / 16 * 16 + 16), size_(host.size) {
    buffer_.fill_bytes(0);
    if (size_ > 0) buffer_.upload(host.data, size_, stream);
  }
  const std::uint8_t* data() const { return buffer_.data(); }
  std::size_t size() const { return size_; }
  std::size_t padded_size() const { return buffer_.size(); }

 private:
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
