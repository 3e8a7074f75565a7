// Lesson 16 - v2's short-pattern path, its threads run one by one on the CPU (short_scan_on_host: the
// kernel's own scan_stride over tiles staged as the kernel stages them) against the CPU brute force.
// No GPU needed; the GPU tests of v2 run the kernel itself at the same lengths.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "byte_strings.hpp"
#include "common/brute_force.hpp"
#include "common/generators.hpp"
#include "short_patterns.hpp"

using namespace cudamatch;
using namespace cudamatch::testing;
using lesson16::kShortPatterns;
using lesson16::kShortTile;

namespace {

using Bytes = std::vector<std::uint8_t>;

constexpr std::size_t kTile = kShortTile;

// The threads' occurrences, in thread order, are brute force's, in position order.
void check(const Bytes& text, const Bytes& pattern) {
  INFO("n " << text.size() << ", m " << pattern.size());
  CHECK(lesson16::short_scan_on_host(text, pattern) == brute_force_find_all(text, pattern));
}

}  // namespace

TEST_CASE("the short path's threads find what brute force finds, m = 1 to 15, at tile and stride edges") {
  std::uint64_t seed = 1600;
  // Sizes around a stride, a tile and the 64 bytes staged past it, and several tiles.
  for (std::size_t n : {std::size_t{1}, std::size_t{3}, std::size_t{35}, std::size_t{36}, std::size_t{37}, kTile - 1,
                        kTile, kTile + 1, kTile + 63, kTile + 64, 2 * kTile + 17, std::size_t{30011}}) {
    for (unsigned sigma : {2u, 4u, 256u}) {
      const Bytes text = random_bytes(n, sigma, ++seed);
      for (std::size_t m = 1; m < kShortPatterns; ++m) {
        if (m <= n) {
          check(text, slice(text, (seed * 7) % (n - m + 1), m));  // occurs at least once
          check(text, slice(text, n - m, m));                     // at the text's last position
        }
        check(text, random_bytes(m, sigma, ++seed));  // m > n too: nothing
      }
    }
  }
}

TEST_CASE("the short path's threads handle all-equal and periodic texts, NUL and 0xff bytes") {
  for (const char* period : {"a", "ab", "aab"}) {
    const Bytes text = repeat_to(period, 2 * kTile + 101);
    for (std::size_t m = 1; m < kShortPatterns; ++m) {
      check(text, slice(text, 0, m));
      check(text, slice(text, 1, m));
    }
  }
  Bytes binary = random_bytes(kTile + 333, 2, 1601);
  for (auto& b : binary) b = b == 'a' ? 0x00 : 0xff;
  for (std::size_t m = 1; m < kShortPatterns; ++m) {
    check(binary, slice(binary, 1000 + m, m));
    check(binary, Bytes(m, 0x00));  // a pattern of NULs: the staged zeros past n must not match
    check(binary, Bytes(m, 0xff));
  }
}
