#include "engine/stream/chunk_ring.hpp"

#include <stdexcept>

namespace cudamatch {

ChunkRing::ChunkRing(std::size_t slots) : slots_(slots) {
  if (slots == 0) throw std::invalid_argument("a ring needs at least one slot");
}

bool ChunkRing::wait_to_fill(std::uint64_t chunk) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return stopped_ || chunk < taken_ + slots_.size(); });
  return !stopped_;
}

void ChunkRing::filled(std::uint64_t chunk, std::size_t bytes) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    slots_[chunk % slots_.size()] = Held{chunk, bytes, true};
  }
  changed_.notify_all();
}

std::size_t ChunkRing::wait_filled(std::uint64_t chunk) {
  std::unique_lock<std::mutex> lock(mutex_);
  const Held& slot = slots_[chunk % slots_.size()];
  changed_.wait(lock, [&] { return stopped_ || (slot.full && slot.chunk == chunk); });
  if (error_) std::rethrow_exception(error_);
  return stopped_ ? 0 : slot.bytes;
}

void ChunkRing::taken(std::uint64_t chunk) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    if (chunk != taken_) throw std::logic_error("chunks are taken in order");
    taken_ = chunk + 1;
  }
  changed_.notify_all();
}

void ChunkRing::stop(const std::exception_ptr& error) {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopped_ = true;
    if (error && !error_) error_ = error;
  }
  changed_.notify_all();
}

ReaderThreads::ReaderThreads(ChunkRing& ring, unsigned count, const std::function<void(unsigned)>& work) : ring_(ring) {
  try {
    for (unsigned r = 0; r < count; ++r) {
      threads_.emplace_back([this, work, r] {
        try {
          work(r);
        } catch (...) {
          ring_.stop(std::current_exception());
        }
      });
    }
  } catch (...) {  // a thread could not start: end the ones that did
    stop_and_join();
    throw;
  }
}

ReaderThreads::~ReaderThreads() { stop_and_join(); }

void ReaderThreads::stop_and_join() {
  ring_.stop();
  for (std::thread& t : threads_) {
    if (t.joinable()) t.join();
  }
}

}  // namespace cudamatch
