// Lesson 07: one entry point, every version behind it.
#include <stdexcept>

#include "brute_force_gpu.hpp"
#include "versions.hpp"

namespace lesson07 {

void ensure_capacity(DeviceBuffer<std::uint64_t>& positions, std::uint64_t count) {
  if (positions.size() >= count) return;
  try {
    positions = DeviceBuffer<std::uint64_t>(count);
  } catch (const cudamatch::CudaError& e) {
    throw std::runtime_error(std::to_string(count) + " occurrences need " +
                             std::to_string(count * sizeof(std::uint64_t) >> 20) +
                             " MiB of device memory for their positions: " + e.what() + " (count mode needs none)");
  }
}

}  // namespace lesson07

namespace {
void check_pattern(const cudamatch::DeviceBuffer<std::uint8_t>& pattern) {
  if (pattern.size() == 0) throw std::invalid_argument("the pattern is empty");
}
}  // namespace

std::uint64_t bf_count(BruteForceVersion version, const cudamatch::DeviceText& text,
                       const cudamatch::DeviceBuffer<std::uint8_t>& pattern, cudaStream_t stream) {
  check_pattern(pattern);
  if (pattern.size() > text.size()) return 0;
  switch (version) {
    case BruteForceVersion::v0: return lesson07::v0_count(text, pattern, stream);
    case BruteForceVersion::v1: return lesson07::v1_count(text, pattern, stream);
    case BruteForceVersion::v2: return lesson07::v2_count(text, pattern, stream);
  }
  throw std::invalid_argument("unknown brute-force version");
}

std::uint64_t bf_positions(BruteForceVersion version, const cudamatch::DeviceText& text,
                           const cudamatch::DeviceBuffer<std::uint8_t>& pattern,
                           cudamatch::DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream) {
  check_pattern(pattern);
  if (pattern.size() > text.size()) return 0;
  switch (version) {
    case BruteForceVersion::v0: return lesson07::v0_positions(text, pattern, positions, stream);
    case BruteForceVersion::v1: return lesson07::v1_positions(text, pattern, positions, stream);
    case BruteForceVersion::v2: return lesson07::v2_positions(text, pattern, positions, stream);
  }
  throw std::invalid_argument("unknown brute-force version");
}
