#include "engine/search_scratch.hpp"

#include <array>

namespace cudamatch {

namespace {

struct Scratch {
  std::array<DeviceBuffer<std::uint8_t>, static_cast<std::size_t>(ScratchSlot::kCount)> device;
  Buffer<unsigned long long, PinnedMemory> host;
};

Scratch& thread_scratch() {
  thread_local Scratch scratch;
  return scratch;
}

}  // namespace

void* scratch_bytes(ScratchSlot slot, std::size_t bytes) {
  DeviceBuffer<std::uint8_t>& buffer = thread_scratch().device.at(static_cast<std::size_t>(slot));
  if (buffer.size() < bytes || buffer.size() == 0) {
    std::size_t grown = 256;
    while (grown < bytes) grown *= 2;
    buffer = DeviceBuffer<std::uint8_t>();  // free first: the old and new need not fit together
    buffer = DeviceBuffer<std::uint8_t>(grown);
  }
  return buffer.data();
}

unsigned long long* pinned_readback(std::size_t count) {
  auto& host = thread_scratch().host;
  if (host.size() < count || host.size() == 0) {
    std::size_t grown = 64;
    while (grown < count) grown *= 2;
    host = Buffer<unsigned long long, PinnedMemory>();
    host = Buffer<unsigned long long, PinnedMemory>(grown);
  }
  return host.data();
}

}  // namespace cudamatch
