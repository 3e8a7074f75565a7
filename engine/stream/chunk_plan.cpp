#include "engine/stream/chunk_plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/brute_force.hpp"  // EmptyPatternError
#include "engine/device_text.hpp"

namespace cudamatch {

std::uint64_t ChunkPlan::chunks(std::uint64_t n) const {
  if (n < pattern_bytes) return 0;
  const std::uint64_t positions = n - pattern_bytes + 1;
  return (positions + chunk_bytes - 1) / chunk_bytes;
}

std::size_t ChunkPlan::window_bytes(std::uint64_t chunk, std::uint64_t n) const {
  const std::uint64_t start = offset(chunk);
  if (start >= n) return 0;
  return static_cast<std::size_t>(std::min<std::uint64_t>(window_bytes(), n - start));
}

std::size_t device_window_bytes(std::size_t window) { return DeviceText::allocation_bytes(window); }

ChunkPlan plan_chunks(std::size_t m, std::size_t chunk_bytes, std::size_t slots, std::size_t device_budget) {
  if (m == 0) throw EmptyPatternError();
  if (chunk_bytes == 0 || slots == 0) throw std::invalid_argument("chunks and buffers must not be empty");
  const std::size_t overlap = m - 1;
  const std::size_t shortest = std::max<std::size_t>(1, overlap);  // the overlap rule
  ChunkPlan plan{m, std::max(chunk_bytes, shortest)};
  if (device_budget == 0) return plan;

  // The longest window whose padded size fits one slot's share of the budget: a multiple of 16.
  const std::size_t share = device_budget / slots;
  const std::size_t longest_window = share >= 32 ? (share - 16) / 16 * 16 : 0;
  const std::size_t longest_chunk = longest_window > overlap ? longest_window - overlap : 0;
  if (longest_chunk < shortest) {
    throw std::invalid_argument("a pattern of " + std::to_string(m) + " bytes needs " + std::to_string(slots) +
                                " windows of at least " + std::to_string(shortest + overlap) + " bytes (" +
                                std::to_string(slots * device_window_bytes(shortest + overlap)) +
                                " bytes of device memory); the device budget is " + std::to_string(device_budget) +
                                " bytes");
  }
  plan.chunk_bytes = std::min(plan.chunk_bytes, longest_chunk);
  return plan;
}

}  // namespace cudamatch
