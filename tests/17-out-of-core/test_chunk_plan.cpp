// Lesson 17 - the chunk arithmetic and the overlap rule (no GPU needed).
#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "engine/stream/chunk_plan.hpp"
#include "common/brute_force.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"

using namespace cudamatch;

TEST_CASE("chunk k owns C positions and its window the m - 1 bytes after them", "[plan]") {
  const ChunkPlan plan = plan_chunks(5, 100, 2, 0);
  CHECK(plan.chunk_bytes == 100);
  CHECK(plan.overlap() == 4);
  CHECK(plan.window_bytes() == 104);
  CHECK(plan.offset(3) == 300);
  // Positions 0 .. n - m; a chunk per 100 of them.
  CHECK(plan.chunks(0) == 0);
  CHECK(plan.chunks(4) == 0);    // n < m: nothing fits
  CHECK(plan.chunks(5) == 1);    // one position
  CHECK(plan.chunks(104) == 1);  // positions 0..99: exactly one chunk, the whole window
  CHECK(plan.chunks(105) == 2);  // position 100 starts chunk 1
  CHECK(plan.chunks(204) == 2);
  CHECK(plan.chunks(205) == 3);
  CHECK(plan.window_bytes(0, 50) == 50);
  CHECK(plan.window_bytes(0, 1000) == 104);
  CHECK(plan.window_bytes(1, 150) == 50);
  CHECK(plan.window_bytes(2, 150) == 0);
}

TEST_CASE("the windows of a plan find every occurrence exactly once, in order", "[plan]") {
  cudamatch::Rng rng(1300);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = rng.below(2000);
    const std::size_t m = 1 + rng.below(30);
    const ChunkPlan plan = plan_chunks(m, 1 + rng.below(64), 2, 0);
    const auto text = cudamatch::random_bytes(n, 2, rng.next());
    const auto pattern = cudamatch::random_bytes(m, 2, rng.next());
    std::vector<std::uint64_t> found;
    for (std::uint64_t k = 0; k < plan.chunks(n); ++k) {
      const std::size_t bytes = plan.window_bytes(k, n);
      REQUIRE(bytes >= m);
      const cudamatch::ByteView window(text.data() + plan.offset(k), bytes);
      for (std::uint64_t p : cudamatch::brute_force_find_all(window, pattern)) {
        CHECK(p < plan.chunk_bytes);  // every occurrence of the window starts in the chunk's own positions
        found.push_back(plan.offset(k) + p);
      }
    }
    INFO("n " << n << ", m " << m << ", chunk " << plan.chunk_bytes);
    CHECK(found == cudamatch::brute_force_find_all(text, pattern));
  }
}

TEST_CASE("the overlap rule: a chunk shorter than m - 1 grows to m - 1", "[plan]") {
  CHECK(plan_chunks(1, 1, 2, 0).chunk_bytes == 1);           // m = 1: no overlap, any chunk
  CHECK(plan_chunks(4097, 4096, 2, 0).chunk_bytes == 4096);  // m - 1 == C: as asked
  CHECK(plan_chunks(5000, 4096, 2, 0).chunk_bytes == 4999);
  CHECK(plan_chunks(5000, 4096, 2, 0).window_bytes() == 9998);
  CHECK_THROWS_AS(plan_chunks(0, 4096, 2, 0), cudamatch::EmptyPatternError);
  CHECK_THROWS_AS(plan_chunks(3, 0, 2, 0), std::invalid_argument);
}

TEST_CASE("a device budget shrinks the chunk, and one too small for the pattern is an error", "[plan]") {
  CHECK(device_window_bytes(1) == 32);
  CHECK(device_window_bytes(16) == 32);
  CHECK(device_window_bytes(17) == 48);
  // 4 slots in 64 KiB: 16 KiB each, of which 16 bytes are padding.
  const ChunkPlan shrunk = plan_chunks(9, 1 << 20, 4, 64 << 10);
  CHECK(shrunk.window_bytes() == (16 << 10) - 16);
  CHECK(4 * device_window_bytes(shrunk.window_bytes()) <= (64 << 10));
  CHECK(plan_chunks(9, 1000, 4, 64 << 10).chunk_bytes == 1000);  // fits as asked
  // m = 3000 needs windows of 2 x 2999 bytes: 4 of them do not fit in 16 KiB.
  CHECK_THROWS_WITH(plan_chunks(3000, 4096, 4, 16 << 10),
                    Catch::Contains("pattern of 3000 bytes") && Catch::Contains("device budget is 16384"));
  CHECK(plan_chunks(2000, 4096, 4, 16 << 10).chunk_bytes == (4 << 10) - 16 - 1999);
}
