// A text on the device for the matchers. The allocation is padded with zero bytes to the next
// multiple of 16, so a kernel may load the 16-byte vector that holds the text's last byte without
// reading memory it does not own. (The padding never matches: every kernel checks i + m <= n.)
#pragma once

#include <cstdint>

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

 private:
  DeviceBuffer<std::uint8_t> buffer_;
  std::size_t size_;
};

}  // namespace cudamatch
