// Rotated texts (common/rotated_text.hpp) made on the GPU: the corpus is copied to the device once,
// and each fresh text of the experiments is written from it by a small kernel into the same
// DeviceText allocation, without a transfer from the host.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/buffers.hpp"
#include "common/byte_view.hpp"
#include "common/ceilings.hpp"
#include "engine/device_text.hpp"
#include "common/rotated_text.hpp"

namespace cudamatch {

class DeviceCorpus {
 public:
  // Copies `corpus` to the device. Throws std::invalid_argument for an empty corpus.
  explicit DeviceCorpus(ByteView corpus);

  std::size_t size() const { return bytes_.size(); }

  // Queues in `stream` the rewrite of `text` as the rotated text of `text_size` bytes read from
  // `offset` (offset mod L): text[i] = corpus[(offset + i) mod L] for i < text_size, then the zero
  // padding that DeviceText guarantees. Throws std::length_error when `text_size` exceeds
  // text.capacity().
  // Then the `edits` (common/rotated_text.hpp), each copied from the vector: it must outlive the
  // stream's reaching them.
  void write_rotation(DeviceText& text, std::size_t offset, std::size_t text_size, cudaStream_t stream,
                      const std::vector<ByteEdit>& edits = {}) const;

 private:
  DeviceBuffer<std::uint8_t> bytes_;
};

// The device text of an experiment's timed calls (the matcher lessons' and lesson 18's drivers): every
// fresh input is written into this one allocation, so that a result kept from an earlier search of its
// address is stale, and the L2 cache is emptied before a timed call, so that none of the text is read
// from it.
class FreshDeviceText {
 public:
  // The corpus on the device and room for a text of `text_bytes` bytes.
  FreshDeviceText(ByteView corpus, std::size_t text_bytes, const DeviceInfo& device);

  // Queues on the default stream the rewrite of the text at `rotation`, then `edits`
  // (DeviceCorpus::write_rotation: the vector must live until the stream reaches them).
  void rewrite(std::size_t rotation, const std::vector<ByteEdit>& edits = {});
  // Queues the emptying of the L2 cache on the default stream and waits for all that stream holds.
  void flush_l2() const;

  const DeviceText& text() const { return text_; }
  std::size_t text_bytes() const { return text_bytes_; }

 private:
  DeviceCorpus corpus_;
  DeviceText text_;
  std::size_t text_bytes_;
  L2Flush flush_;
};

}  // namespace cudamatch
