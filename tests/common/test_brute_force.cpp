#include <catch2/catch.hpp>

#include <string>

#include "common/brute_force.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"

using namespace cudamatch;

namespace {
std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

// An independent statement of the semantics: position i matches when every byte agrees.
std::vector<std::uint64_t> definition(const std::vector<std::uint8_t>& t, const std::vector<std::uint8_t>& p) {
  std::vector<std::uint64_t> out;
  for (std::size_t i = 0; i + p.size() <= t.size(); ++i) {
    bool all = true;
    for (std::size_t j = 0; j < p.size(); ++j) all = all && t[i + j] == p[j];
    if (all) out.push_back(i);
  }
  return out;
}
}  // namespace

TEST_CASE("brute force finds overlapping occurrences in order", "[brute_force]") {
  const auto text = bytes("aaaaa");
  CHECK(brute_force_find_all(text, bytes("aa")) == std::vector<std::uint64_t>{0, 1, 2, 3});
  CHECK(brute_force_find_all(bytes("abababa"), bytes("aba")) == std::vector<std::uint64_t>{0, 2, 4});
  CHECK(brute_force_count(text, bytes("a")) == 5);
}

TEST_CASE("brute force finds matches at offset 0 and at n-m", "[brute_force]") {
  const auto text = bytes("needle in a haystack, needle");
  CHECK(brute_force_find_all(text, bytes("needle")) == std::vector<std::uint64_t>{0, 22});
  CHECK(brute_force_find_all(text, text) == std::vector<std::uint64_t>{0});
}

TEST_CASE("brute force: a pattern longer than the text has no match and an empty one is an error", "[brute_force]") {
  CHECK(brute_force_find_all(bytes("abc"), bytes("abcd")).empty());
  CHECK(brute_force_count(std::vector<std::uint8_t>{}, bytes("a")) == 0);
  CHECK_THROWS_AS(brute_force_find_all(bytes("abc"), std::vector<std::uint8_t>{}), EmptyPatternError);
  CHECK_THROWS_AS(brute_force_count(std::vector<std::uint8_t>{}, std::vector<std::uint8_t>{}), EmptyPatternError);
}

TEST_CASE("brute force handles NUL and bytes >= 0x80", "[brute_force]") {
  const std::vector<std::uint8_t> text = {0x00, 0xFF, 0x80, 0x00, 0xFF, 0x80, 0x7F};
  CHECK(brute_force_find_all(text, std::vector<std::uint8_t>{0x00, 0xFF}) == std::vector<std::uint64_t>{0, 3});
  CHECK(brute_force_find_all(text, std::vector<std::uint8_t>{0x80}) == std::vector<std::uint64_t>{2, 5});
}

TEST_CASE("brute force agrees with the definition on random inputs", "[brute_force]") {
  Rng rng(2024);
  for (int trial = 0; trial < 2000; ++trial) {
    const unsigned sigma = std::vector<unsigned>{2, 4, 26, 256}[trial % 4];
    const std::size_t n = rng.below(300);
    const std::size_t m = 1 + rng.below(n + 2);
    const auto text = random_bytes(n, sigma, rng.next());
    auto pattern = random_bytes(m, sigma, rng.next());
    if (m <= n && rng.below(2) == 0) {  // half the time, plant the pattern from the text
      const std::size_t at = rng.below(n - m + 1);
      pattern.assign(text.begin() + static_cast<long>(at), text.begin() + static_cast<long>(at + m));
    }
    INFO("trial " << trial << " n=" << n << " m=" << m << " sigma=" << sigma);
    REQUIRE(brute_force_find_all(text, pattern) == definition(text, pattern));
  }
}
