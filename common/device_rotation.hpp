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

}  // namespace cudamatch
