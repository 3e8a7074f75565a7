#include "staging.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/cuda_check.hpp"

namespace lesson13 {

DeviceWindow::DeviceWindow(const std::uint8_t* host, std::size_t bytes) {
  text_.emplace(cudamatch::ByteView(host, bytes));
}

void DeviceWindow::load(const std::uint8_t* host, std::size_t bytes, cudaStream_t stream) {
  if (!text_ || text_->size() != bytes) {
    CUDA_CHECK(cudaStreamSynchronize(stream));  // what `stream` waits for (the last search of the window) is over
    text_.reset();
    text_.emplace(cudamatch::ByteView(host, bytes), stream);
    return;
  }
  // DeviceText offers no writable view of its bytes; this window owns the text, so writing them is
  // sound, and the text keeps its zero padding past `bytes`.
  auto* bytes_on_device = const_cast<std::uint8_t*>(text_->data());
  CUDA_CHECK(cudaMemcpyAsync(bytes_on_device, host, bytes, cudaMemcpyHostToDevice, stream));
}

namespace {
// A pinned buffer of `bytes` zero bytes.
cudamatch::PinnedBuffer<std::uint8_t> zeroed_pinned(std::size_t bytes) {
  cudamatch::PinnedBuffer<std::uint8_t> buffer(bytes);
  std::fill(buffer.data(), buffer.data() + bytes, std::uint8_t{0});
  return buffer;
}
}  // namespace

Slot::Slot(std::size_t window_bytes) : host(zeroed_pinned(window_bytes)), device(host.data(), window_bytes) {}

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

}  // namespace lesson13
