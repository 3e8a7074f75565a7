// The test cases that every version of a GPU matcher lesson (11-16) runs, written once per lesson:
//
//   const Edges kEdges{"tile edges", {512, 2048, 4096, 16384}};
//   const VersionChecks checks(brute_force_gpu(), 700, [](int) -> const Edges& { return kEdges; },
//                              {{"finds periodic patterns in periodic texts", [](const GpuVersion& v, int) {...}}});
//
// registers, for each version vN of the table, the test cases
//   "vN equals the CPU brute force on random texts and patterns"    random_cases(vN, edges(N).at, seed + N)
//   "vN handles all-equal texts, <edges(N).name>, whole-text patterns"          edge_cases(vN, edges(N).at)
//   "vN <name>" for each of the lesson's own checks,
// tagged [gpu], and [todo] for the versions the starter leaves to the student (all but v0); and the
// lesson's test that an empty pattern is an error and that a version that does not exist is named.
// Construct it at namespace scope, so that the cases exist before Catch2's session lists or runs them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/gpu_matcher.hpp"

namespace cudamatch::testing {

// Where a version splits the text (its tiles, chunks, pieces), which random_cases and edge_cases aim at.
struct Edges {
  std::string name;  // "tile edges"
  std::vector<std::size_t> at;
};

// The edges of lessons 13 and 14, whose versions split the text alike (engine/chunked_tiles.hpp): v0 and
// v1 in chunks of 256 window starts (m < 64) and 4096 (m > 1024), v2 in chunks of 68 and tiles of 17,408
// (m <= 1088).
const Edges& chunked_tile_edges(int number);

struct VersionCheck {
  std::string name;
  std::function<void(const GpuVersion& version, int number)> check;  // number: N
};

struct VersionChecks {
  VersionChecks(const GpuAlgorithm& algorithm, std::uint64_t seed, const std::function<const Edges&(int number)>& edges,
                const std::vector<VersionCheck>& more = {});
};

// Registers the Catch2 test case `name` with `tags` that runs `run`, for test cases made in a loop (each
// version of a lesson). Call it before Catch2's session starts (from a constructor at namespace scope).
void register_test_case(const std::string& name, const std::string& tags, std::function<void()> run);

// Queues the counts of `patterns` in `text` as one batch (gpu_count_batch) and compares each with the
// CPU brute force.
void check_batch_counts(const GpuVersion& version, const std::vector<std::uint8_t>& text,
                        const std::vector<std::vector<std::uint8_t>>& patterns);

}  // namespace cudamatch::testing
