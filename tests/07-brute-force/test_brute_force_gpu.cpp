// Lesson 07 - brute force on the GPU. Every version against the CPU brute force; [todo] marks the
// tests of the starter's TODOs (v1, v2, v3).
#include <catch2/catch.hpp>

#include "brute_force_gpu.hpp"
#include "common/generators.hpp"
#include "gpu_matcher_checks.hpp"

using namespace cudamatch;
using namespace cudamatch::testing;

namespace {

// Where the versions split the text: v1 and v2 tiles of 4096 positions, v3's warp pieces of 512 and
// 2048 positions and block tiles of 16384.
const std::vector<std::size_t> kEdges = {512, 2048, 4096, 16384};

const GpuVersion& version(int number) { return brute_force_gpu().version(number); }

}  // namespace

TEST_CASE("v0 equals the CPU brute force on random texts and patterns", "[gpu]") {
  random_cases(version(0), kEdges, 700);
}
TEST_CASE("v0 handles all-equal texts, tile edges, whole-text patterns", "[gpu]") { edge_cases(version(0), kEdges); }
TEST_CASE("v1 equals the CPU brute force on random texts and patterns", "[gpu][todo]") {
  random_cases(version(1), kEdges, 701);
}
TEST_CASE("v1 handles all-equal texts, tile edges, whole-text patterns", "[gpu][todo]") {
  edge_cases(version(1), kEdges);
}
TEST_CASE("v2 equals the CPU brute force on random texts and patterns", "[gpu][todo]") {
  random_cases(version(2), kEdges, 702);
}
TEST_CASE("v2 handles all-equal texts, tile edges, whole-text patterns", "[gpu][todo]") {
  edge_cases(version(2), kEdges);
}
TEST_CASE("v3 equals the CPU brute force on random texts and patterns", "[gpu][todo]") {
  random_cases(version(3), kEdges, 703);
}
TEST_CASE("v3 handles all-equal texts, tile edges, whole-text patterns", "[gpu][todo]") {
  edge_cases(version(3), kEdges);
}

TEST_CASE("v1 falls back to v0 for patterns too long for shared memory", "[gpu]") {
  // 30,000 bytes of pattern do not fit beside a tile in 48 KB: the fallback answers.
  const auto text = random_bytes(70000, 2, 11);
  check_against_brute_force(version(1), text, std::vector<std::uint8_t>(text.begin() + 12345, text.begin() + 42345));
}

TEST_CASE("a batch of counts equals the counts one by one", "[gpu]") {
  const auto host = random_bytes(300001, 4, 12);
  const DeviceText text(host);
  std::vector<DevicePattern> patterns;
  for (std::size_t m : {1, 3, 6, 12, 300002}) patterns.emplace_back(random_bytes(m, 4, m));
  std::vector<const DevicePattern*> batch;
  for (const auto& p : patterns) batch.push_back(&p);
  const std::vector<std::uint64_t> counts = gpu_count_batch(brute_force_gpu().baseline(), text, batch);
  for (std::size_t p = 0; p < patterns.size(); ++p) {
    CHECK(counts[p] == brute_force_find_all(host, patterns[p].host()).size());
  }
}

TEST_CASE("an empty pattern is an error, a version that does not exist is named", "[gpu]") {
  const DeviceText text(std::vector<std::uint8_t>{'a'});
  const DevicePattern empty(ByteView{});
  CHECK_THROWS_AS(gpu_count(version(1), text, empty), EmptyPatternError);
  CHECK_THROWS_WITH(version(9), Catch::Contains("v0 to v3"));
}
