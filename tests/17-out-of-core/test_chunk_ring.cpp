// Lesson 17 - the hand-over of v2's ring between reader threads and the queue (no GPU needed).
#include <atomic>
#include <catch2/catch.hpp>
#include <stdexcept>
#include <vector>

#include "engine/stream/chunk_ring.hpp"

using namespace cudamatch;

namespace {

// Readers write the chunk number into slot k mod `slots` and hand it over; the queue checks that
// every chunk arrives, in order, never overwritten before it was taken. Returns the chunks taken.
std::uint64_t run_ring(std::size_t slots, unsigned readers, std::uint64_t chunks, std::uint64_t fail_at = ~0ull) {
  ChunkRing ring(slots);
  std::vector<std::atomic<std::uint64_t>> held(slots);
  std::uint64_t taken = 0;
  {
    const ReaderThreads threads(ring, readers, [&](unsigned r) {
      for (std::uint64_t k = r;; k += readers) {
        if (!ring.wait_to_fill(k)) return;
        if (k == fail_at) throw std::runtime_error("cannot read chunk " + std::to_string(k));
        held[k % slots] = k;
        ring.filled(k, k < chunks ? 100 : 0);
        if (k >= chunks) return;
      }
    });
    for (std::uint64_t k = 0;; ++k) {
      const std::size_t bytes = ring.wait_filled(k);
      if (bytes == 0) break;
      REQUIRE(held[k % slots] == k);
      ring.taken(k);
      ++taken;
    }
  }
  return taken;
}

}  // namespace

TEST_CASE("the ring hands every chunk to the queue once, in order, however many readers", "[ring]") {
  CHECK(run_ring(2, 1, 0) == 0);
  CHECK(run_ring(2, 1, 1000) == 1000);
  CHECK(run_ring(4, 2, 1000) == 1000);
  CHECK(run_ring(10, 8, 1001) == 1001);
  CHECK(run_ring(2, 5, 999) == 999);  // more readers than slots: slower, but no deadlock
}

TEST_CASE("a reader's error stops the ring and reaches the queue", "[ring]") {
  CHECK_THROWS_WITH(run_ring(4, 3, 1000, 37), "cannot read chunk 37");
  CHECK_THROWS_WITH(run_ring(2, 1, 1000, 0), "cannot read chunk 0");
}

TEST_CASE("chunks are taken in order", "[ring]") {
  ChunkRing ring(2);
  CHECK_THROWS_AS(ring.taken(1), std::logic_error);
}
