// Lesson 11 - brute force on the GPU. Every version against the CPU brute force; [todo] marks the
// tests of the starter's TODOs (v1, v2, v3).
#include <catch2/catch.hpp>

#include "brute_force_gpu.hpp"
#include "common/generators.hpp"
#include "gpu_matcher_checks.hpp"
#include "version_checks.hpp"

using namespace cudamatch;
using namespace cudamatch::testing;

namespace {

// Where the versions split the text: v1 and v2 tiles of 4096 positions, v3's warp pieces of 512 and
// 2048 positions and block tiles of 16384.
const Edges kEdges{"tile edges", {512, 2048, 4096, 16384}};

const GpuVersion& version(int number) { return brute_force_gpu().version(number); }

}  // namespace

const VersionChecks checks(brute_force_gpu(), 700, [](int) -> const Edges& { return kEdges; });

TEST_CASE("v1 falls back to v0 for patterns too long for shared memory", "[gpu]") {
  // 30,000 bytes of pattern do not fit beside a tile in 48 KB: the fallback answers.
  const auto text = random_bytes(70000, 2, 11);
  check_against_brute_force(version(1), text, std::vector<std::uint8_t>(text.begin() + 12345, text.begin() + 42345));
}

TEST_CASE("a batch of counts equals the counts one by one", "[gpu]") {
  std::vector<std::vector<std::uint8_t>> patterns;
  for (std::size_t m : {1, 3, 6, 12, 300002}) patterns.push_back(random_bytes(m, 4, m));
  check_batch_counts(brute_force_gpu().baseline(), random_bytes(300001, 4, 12), patterns);
}
