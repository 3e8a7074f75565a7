// Effective-bandwidth arithmetic. GB means 1e9 bytes, as in GPU data sheets.
#pragma once

#include <cstdint>

namespace cudamatch {

// Bytes moved per second, in GB/s, for `bytes` moved in `milliseconds`. Zero or negative time gives 0
// (a broken timer must not produce an infinite bandwidth).
inline double gb_per_s(std::uint64_t bytes, double milliseconds) {
  if (!(milliseconds > 0.0)) return 0.0;
  return static_cast<double>(bytes) / (milliseconds * 1e-3) / 1e9;
}

// `part` as a percentage of `whole` (0 when there is no ceiling to compare with).
inline double percent_of(double part, double whole) { return whole > 0.0 ? 100.0 * part / whole : 0.0; }

inline constexpr std::uint64_t kKiB = 1024;
inline constexpr std::uint64_t kMiB = 1024 * kKiB;
inline constexpr std::uint64_t kGiB = 1024 * kMiB;

}  // namespace cudamatch
