// The GPU matchers behind one interface, so that tests, drivers and the `cudamatch` CLI treat every
// algorithm and version alike. A matcher lesson (11-16) defines each version as a GpuVersion constant
// in the version's own file and lists them in its table, a GpuAlgorithm (lessons/<id>/lesson.json names
// the table that `cudamatch` links).
//
// A version provides two entry points; gpu_count and gpu_positions below add the checks every
// version shares (empty pattern: EmptyPatternError; pattern longer than the text: no occurrence), so
// the entry points may assume 1 <= m <= n.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <vector>

#include "common/buffers.hpp"
#include "engine/device_text.hpp"
#include "common/matchers/cpu_matcher.hpp"

namespace cudamatch {

// String literals, so that a version is a constant, initialized before any code runs.
struct GpuVersion {
  const char* name;     // "v0", "v1", ...
  const char* summary;  // one line: what this version changes
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

// The baselines (every v0) report each occurrence with a global atomic, in the order the threads
// happen to run. Such a version is one function that queues a search which adds its occurrences to
// *count and, when `positions` is not null, writes each one at positions[the count before its add].
using UnorderedSearch = void (*)(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count,
                                 std::uint64_t* positions, cudaStream_t stream);

// Runs `search` to count, makes room, runs it again and sorts on the host: the cost the ordered output
// of the optimized versions avoids.
std::uint64_t positions_sorted_on_host(UnorderedSearch search, const DeviceText& text, const DevicePattern& pattern,
                                       DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream);

// The two entry points of a baseline (engine/unordered_search.cuh has what its kernel shares).
template <UnorderedSearch kSearch>
struct UnorderedVersion {
  static void count(const DeviceText& text, const DevicePattern& pattern, unsigned long long* count,
                    cudaStream_t stream) {
    kSearch(text, pattern, count, nullptr, stream);
  }
  static std::uint64_t positions(const DeviceText& text, const DevicePattern& pattern,
                                 DeviceBuffer<std::uint64_t>& positions, cudaStream_t stream) {
    return positions_sorted_on_host(kSearch, text, pattern, positions, stream);
  }
};

// const GpuVersion v0 = unordered_version<search>("v0", "summary"): a constant.
template <UnorderedSearch kSearch>
constexpr GpuVersion unordered_version(const char* name, const char* summary) {
  return {name, summary, UnorderedVersion<kSearch>::count, UnorderedVersion<kSearch>::positions};
}

}  // namespace cudamatch
