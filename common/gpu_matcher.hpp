// The GPU matchers of lessons 07-12 behind one interface, so that tests, drivers and the `cudamatch`
// CLI treat every algorithm and version alike.
//
// A version provides two entry points; gpu_count and gpu_positions below add the checks every
// version shares (empty pattern: EmptyPatternError; pattern longer than the text: no occurrence), so
// the entry points may assume 1 <= m <= n.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/buffers.hpp"
#include "common/device_text.hpp"
#include "common/matchers/cpu_matcher.hpp"

namespace cudamatch {

struct GpuVersion {
  std::string name;     // "v0", "v1", ...
  std::string summary;  // one line: what this version changes
  // Adds the number of occurrences to *count (device memory) in stream order, without synchronizing
  // with the host: many searches can be queued before one read-back (gpu_count_batch).
  void (*enqueue_count)(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count,
                        cudaStream_t stream);
  // Writes the sorted offsets of every occurrence to positions[0, count) and returns the count.
  // Grows `positions` when it is too small (ensure_capacity); leaves what lies past the count alone.
  std::uint64_t (*positions)(const DeviceText& text, const DevicePattern& pattern,
                             DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream);
};

struct GpuAlgorithm {
  Algorithm algorithm;
  std::vector<GpuVersion> versions;  // v0 first, the best last

  const GpuVersion& baseline() const { return versions.front(); }
  const GpuVersion& best() const { return versions.back(); }
  // Throws std::out_of_range naming the versions there are.
  const GpuVersion& version(int number) const;
};

// The number of occurrences (one read-back, synchronizes `stream`).
std::uint64_t gpu_count(const GpuVersion& version, const DeviceText& text, const DevicePattern& pattern,
                        cudaStream_t stream = nullptr);

// The counts of several patterns: every search queued, then one read-back of all the counts.
std::vector<std::uint64_t> gpu_count_batch(const GpuVersion& version, const DeviceText& text,
                                           const std::vector<const DevicePattern*>& patterns,
                                           cudaStream_t stream = nullptr);

// The count, and the sorted offsets in positions[0, count).
std::uint64_t gpu_positions(const GpuVersion& version, const DeviceText& text, const DevicePattern& pattern,
                            DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream = nullptr);

// Grows `positions` to hold `count` offsets. When device memory cannot hold them, throws
// std::runtime_error with the count and the size asked for (count mode needs no such memory).
void ensure_capacity(DeviceBuffer<std::uint64_t>& positions, std::uint64_t count);

// For baselines that report each match with a global atomic, in no particular order.
// `search(counter, positions)` enqueues one search that adds its matches to *counter and, when
// `positions` is not null, writes each one at positions[the counter's value before its add]. This
// runs it to count, makes room, runs it again and sorts on the host: the cost the ordered output of
// the optimized versions avoids.
std::uint64_t positions_sorted_on_host(const std::function<void(unsigned long long*, std::uint64_t*)>& search,
                                       DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream);

}  // namespace cudamatch
