// The CUDA backend of `cudamatch`: the GPU versions of the lessons of the track this build compiled
// (a student's build runs the student's kernels), behind the same matcher interface as the CPU
// backend.
#pragma once

#include <memory>
#include <vector>

#include "engine/gpu_matcher.hpp"
#include "engine/multi_matcher.hpp"

namespace cudamatch::cli {

// The table of every matcher lesson this build compiles (generated from the lessons' manifests).
const std::vector<const GpuAlgorithm*>& gpu_algorithms();

// The versions of multi-pattern search on the GPU (lesson 18; generated from the manifest that names a
// "multi_matcher"), or null when this build has none.
const GpuMultiAlgorithm* gpu_multi_table();

// The GPU versions of `algorithm`, or null when it has none yet.
const GpuAlgorithm* gpu_algorithm(Algorithm algorithm);

// The count of `pattern` in a device-resident `text` with `version`, the way `cudamatch` counts inputs
// that fit on the GPU: lesson 10's search replayed from a CUDA graph (generated from the manifest that
// names a "graph_search"), or gpu_count while that lesson's holes are unfinished (its "unfinished"
// exception: one line on stderr says so; a CUDA error still throws). For versions whose count reads
// nothing but the device text and pattern (graph_replayable); the others count with gpu_count.
std::uint64_t replayed_count(const GpuVersion& version, const DeviceText& text, const DevicePattern& pattern);

// The counts of several patterns of one length the same way, all their searches in one replay (lesson
// 10's graph_count_batch), or gpu_count_batch while that lesson is unfinished.
std::vector<std::uint64_t> replayed_count_batch(const GpuVersion& version, const DeviceText& text,
                                                const std::vector<const DevicePattern*>& patterns);

// Whether `version` is one of brute force's: their counts are kernels over the device text and
// pattern alone, which a captured graph replays for new pattern bytes. (Other matchers upload tables
// built on the host, which a graph would replay stale.)
bool graph_replayable(const GpuVersion& version);

// A matcher that searches each text it is given on the GPU with `version`: the text is copied to
// the device (one piece of a file at a time), searched, and the positions copied back; a count of a
// brute-force version is replayed_count's.
std::unique_ptr<CpuMatcher> make_gpu_matcher(const GpuVersion& version, ByteView pattern);

}  // namespace cudamatch::cli
