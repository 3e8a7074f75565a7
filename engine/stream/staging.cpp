#include "engine/stream/staging.hpp"

#include <stdexcept>

namespace cudamatch {

DeviceWindow::DeviceWindow(std::size_t bytes) : text_(DeviceText::with_capacity(bytes)) {}

void DeviceWindow::load(const std::uint8_t* host, std::size_t bytes, cudaStream_t stream) {
  text_.assign_async(ByteView(host, bytes), stream);
}

Slot::Slot(std::size_t window_bytes) : host(window_bytes), device(window_bytes) {}

Staging::Staging(const ChunkPlan& plan, std::size_t slots) : window_bytes_(plan.window_bytes()) {
  if (slots < 2) throw std::invalid_argument("the staging ring needs at least 2 slots");
  slots_.reserve(slots);
  for (std::size_t s = 0; s < slots; ++s) slots_.emplace_back(window_bytes_);
}

std::uint8_t* Staging::pageable() {
  pageable_.resize(window_bytes_);
  return pageable_.data();
}

void Staging::synchronize() const {
  copy_.synchronize();
  search_.synchronize();
}

}  // namespace cudamatch
