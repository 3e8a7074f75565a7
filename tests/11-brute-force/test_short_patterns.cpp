// Lesson 11 - the given short-pattern path: its threads run one by one on the CPU (short_scan_on_host: the
// kernel's own scan_stride over tiles staged as the kernel stages them) against the CPU brute force,
// then the kernel itself ([gpu]).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "byte_strings.hpp"
#include "common/brute_force.hpp"
#include "common/generators.hpp"
#include "short_patterns.hpp"
#include "gpu_matcher_checks.hpp"

using namespace cudamatch;
using namespace cudamatch::testing;
using namespace cudamatch::lesson11;

namespace {

using Bytes = std::vector<std::uint8_t>;

constexpr std::size_t kTile = kShortTile;

// The threads' occurrences, in thread order, are brute force's, in position order.
void check(const Bytes& text, const Bytes& pattern) {
  INFO("n " << text.size() << ", m " << pattern.size());
  CHECK(short_scan_on_host(text, pattern) == brute_force_find_all(text, pattern));
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

TEST_CASE("the short path: its tile edges, and more tiles than blocks in count mode", "[gpu]") {
  const GpuVersion short_path{"short", "lesson 11's short-pattern path", short_count, short_positions};
  for (std::size_t n : {kTile - 1, kTile, kTile + 1, kTile + 63, kTile + 64, 2 * kTile + 17}) {
    const auto text = random_bytes(n, 4, 1800 + n);
    for (std::size_t m : {std::size_t{1}, std::size_t{4}, std::size_t{5}, std::size_t{15}}) {
      check_against_brute_force(short_path, text, slice(text, n - m, m));              // the text's last position
      check_against_brute_force(short_path, text, slice(text, kTile - 1 - m / 2, m));  // across the tile's end
    }
  }
  // 24 MB: about 2,700 tiles of 9,216 positions, more than the blocks that fit on any GPU at once, so
  // each block of the count pass searches several tiles.
  const auto dna = random_bytes(24 * 1024 * 1024 + 17, 4, 1810);
  check_against_brute_force(short_path, dna, slice(dna, 5000000, 12));
  check_against_brute_force(short_path, dna, slice(dna, 7000000, 7));
  check_against_brute_force(short_path, std::vector<std::uint8_t>(12 * 1024 * 1024 + 3, 'a'),
                            std::vector<std::uint8_t>(15, 'a'));
}
