// The streamed search (lesson 17) - the staging ring. Slot k mod K carries chunk k: a pinned host buffer that the
// chunk's window is read into, a device window that it is copied to and searched in, and two events that say when each
// may take the next chunk. One stream copies, one stream searches, so that a copy and a search of different chunks run
// at the same time (lesson 06); all searches share one stream because the matchers' scratch memory
// (engine/search_scratch.hpp) is shared by the searches of a thread.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/stream/chunk_plan.hpp"
#include "common/buffers.hpp"
#include "engine/device_text.hpp"

namespace cudamatch {

// The device copy of one chunk's window.
class DeviceWindow {
 public:
  // A window of up to `bytes` bytes (allocated now, so that a device budget too small fails here and
  // not in the middle of an input).
  explicit DeviceWindow(std::size_t bytes);

  // Queues on `stream` the copy of host[0, bytes) into the window: from pinned memory the copy engine
  // does it while the host goes on. The last window of an input may be shorter.
  void load(const std::uint8_t* host, std::size_t bytes, cudaStream_t stream);
  // For a window filled by other means (copies the caller queues on `stream` after this): the window
  // holds `bytes` bytes from now on; returns where they go on the device.
  std::uint8_t* reserve(std::size_t bytes, cudaStream_t stream) { return text_.resize_async(bytes, stream); }

  // The text the last load put on the device.
  const DeviceText& text() const { return text_; }

 private:
  DeviceText text_;
};

struct Slot {
  explicit Slot(std::size_t window_bytes);

  PinnedBuffer<std::uint8_t> host;
  DeviceWindow device;
  CudaEvent copied;    // recorded after the copy of `host` to `device`: `host` may be refilled
  CudaEvent searched;  // recorded after the search of `device`: `device` may be refilled
};

class Staging {
 public:
  // `slots` (at least 2) slots for the windows of `plan`. Device memory: slots x
  // device_window_bytes(plan.window_bytes()); pinned host memory: slots x plan.window_bytes().
  Staging(const ChunkPlan& plan, std::size_t slots);

  std::size_t size() const { return slots_.size(); }
  // The slot of chunk k: slot k mod size().
  Slot& slot(std::uint64_t chunk) { return slots_[chunk % slots_.size()]; }
  cudaStream_t copy_stream() const { return copy_.get(); }
  cudaStream_t search_stream() const { return search_.get(); }
  // A pageable (ordinary) host buffer of one window, for v0; allocated on first use.
  std::uint8_t* pageable();
  // Waits for everything queued on both streams.
  void synchronize() const;

 private:
  std::size_t window_bytes_;
  std::vector<Slot> slots_;
  CudaStream copy_;
  CudaStream search_;
  std::vector<std::uint8_t> pageable_;
};

}  // namespace cudamatch
