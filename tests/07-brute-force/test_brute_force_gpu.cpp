// Lesson 07 - brute force on the GPU. Every version against the CPU brute force; [todo] marks the
// tests of the starter's TODOs (v1, v2).
#include <catch2/catch.hpp>

#include <vector>

#include "brute_force_gpu.hpp"
#include "common/brute_force.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"

using namespace cudamatch;

namespace {

constexpr std::size_t kTile = 4096;  // v1's positions per block: sizes around it cross tile edges

// Searches `text` for `pattern` with `version` in both modes, the positions buffer poisoned and
// larger than needed, and compares with the CPU brute force.
void check(BruteForceVersion version, const std::vector<std::uint8_t>& text, const std::vector<std::uint8_t>& pattern) {
  const std::vector<std::uint64_t> expected = brute_force_find_all(text, pattern);
  INFO("n " << text.size() << ", m " << pattern.size() << ", expected " << expected.size() << " matches");
  const DeviceText d_text(text);
  DeviceBuffer<std::uint8_t> d_pattern(pattern.size());
  d_pattern.upload(pattern.data(), pattern.size());
  REQUIRE(bf_count(version, d_text, d_pattern) == expected.size());
  DeviceBuffer<std::uint64_t> positions(expected.size() + 8);
  positions.fill_bytes(0xFF);
  REQUIRE(bf_positions(version, d_text, d_pattern, positions) == expected.size());
  std::vector<std::uint64_t> found(expected.size() + 8);
  positions.download(found.data(), found.size());
  CHECK(std::vector<std::uint64_t>(found.begin(), found.begin() + static_cast<long>(expected.size())) == expected);
  CHECK(std::all_of(found.begin() + static_cast<long>(expected.size()), found.end(),
                    [](std::uint64_t v) { return v == ~std::uint64_t{0}; }));  // nothing written past the count
}

std::vector<std::uint8_t> slice(const std::vector<std::uint8_t>& text, std::size_t at, std::size_t m) {
  return {text.begin() + static_cast<long>(at), text.begin() + static_cast<long>(at + m)};
}

void random_cases(BruteForceVersion version) {
  Rng rng(707);
  for (unsigned sigma : {2u, 4u, 26u, 256u}) {
    for (std::size_t n : {std::size_t{1}, std::size_t{15}, kTile - 1, kTile, kTile + 1, 3 * kTile + 7, std::size_t{100003}}) {
      const auto text = random_bytes(n, sigma, rng.next());
      for (std::size_t m : {1, 2, 3, 7, 16, 31, 64, 255, 4095, 4096, 4097}) {
        if (m > n + 1) continue;
        INFO("alphabet " << sigma);
        check(version, text, m <= n ? slice(text, rng.below(n - m + 1), m) : random_bytes(m, sigma, rng.next()));
      }
    }
  }
}

void edge_cases(BruteForceVersion version) {
  // All-equal text: an occurrence at every position, across every tile edge.
  const std::vector<std::uint8_t> same(3 * kTile + 5, 'a');
  for (std::size_t m : {1, 2, 17, 4096, 5000}) check(version, same, std::vector<std::uint8_t>(m, 'a'));
  // Occurrences planted across the first tile edges, at 0 and at n - m, with NUL and 0xFF bytes.
  Rng rng(9);
  for (std::size_t m : {2, 8, 33, 1000}) {
    auto text = random_bytes(4 * kTile + 3, 26, rng.next());
    auto pattern = random_bytes(m, 256, rng.next());
    pattern[0] = 0x00;
    pattern[m - 1] = 0xFF;
    for (std::size_t at : {std::size_t{0}, kTile - m / 2, 2 * kTile - 1, 3 * kTile - m + 1, text.size() - m}) {
      std::copy(pattern.begin(), pattern.end(), text.begin() + static_cast<long>(at));
    }
    check(version, text, pattern);
  }
  // The pattern is the whole text; longer than the text; a text of one byte.
  const auto text = random_bytes(5000, 4, 3);
  check(version, text, text);
  check(version, text, random_bytes(5001, 4, 4));
  check(version, {'x'}, {'x'});
}

}  // namespace

TEST_CASE("v0 equals the CPU brute force on random texts and patterns", "[gpu]") { random_cases(BruteForceVersion::v0); }
TEST_CASE("v0 handles all-equal texts, tile edges, whole-text patterns", "[gpu]") { edge_cases(BruteForceVersion::v0); }
TEST_CASE("v1 equals the CPU brute force on random texts and patterns", "[gpu][todo]") { random_cases(BruteForceVersion::v1); }
TEST_CASE("v1 handles all-equal texts, tile edges, whole-text patterns", "[gpu][todo]") { edge_cases(BruteForceVersion::v1); }

TEST_CASE("v2 equals the CPU brute force on random texts and patterns", "[gpu][todo]") { random_cases(BruteForceVersion::v2); }
TEST_CASE("v2 handles all-equal texts, tile edges, whole-text patterns", "[gpu][todo]") { edge_cases(BruteForceVersion::v2); }

TEST_CASE("v1 falls back to v0 for patterns too long for shared memory", "[gpu]") {
  // 30,000 bytes of pattern do not fit beside a tile in 48 KB: the fallback answers.
  const auto text = random_bytes(70000, 2, 11);
  check(BruteForceVersion::v1, text, slice(text, 12345, 30000));
}

TEST_CASE("an empty pattern is an error", "[gpu]") {
  const DeviceText text(std::vector<std::uint8_t>{'a'});
  DeviceBuffer<std::uint8_t> empty;
  CHECK_THROWS_AS(bf_count(BruteForceVersion::v1, text, empty), std::invalid_argument);
}
