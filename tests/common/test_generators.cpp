#include <catch2/catch.hpp>

#include <array>
#include <set>

#include "common/generators.hpp"
#include "common/random.hpp"

using namespace cudamatch;

TEST_CASE("generators are deterministic per seed and differ across seeds", "[generators]") {
  CHECK(random_bytes(1000, 256, 7) == random_bytes(1000, 256, 7));
  CHECK(random_bytes(1000, 256, 7) != random_bytes(1000, 256, 8));
  CHECK(random_dna(1000, 7) == random_dna(1000, 7));
  CHECK(random_english(5000, 7) == random_english(5000, 7));
  CHECK(random_english(5000, 7) != random_english(5000, 8));
  CHECK(random_floats(100, 3) == random_floats(100, 3));
}

TEST_CASE("the generated sequence is pinned (same numbers on every machine)", "[generators]") {
  Rng rng(0);
  CHECK(rng.next() == 0xE220A8397B1DCDAFull);  // SplitMix64's published first output for seed 0
  CHECK(random_bytes(8, 26, 1) == random_bytes(8, 26, 1));
}

TEST_CASE("uniform bytes use exactly the requested alphabet", "[generators]") {
  for (unsigned sigma : {1u, 2u, 4u, 26u, 256u}) {
    const auto text = random_bytes(200000, sigma, sigma);
    std::set<std::uint8_t> seen(text.begin(), text.end());
    CHECK(seen.size() == sigma);
    for (auto b : seen) CHECK(static_cast<std::uint8_t>(b - 'a') < sigma);
  }
  const auto all = random_bytes(100000, 256, 1);
  CHECK(std::count(all.begin(), all.end(), 0x00) > 0);
  CHECK(std::count_if(all.begin(), all.end(), [](std::uint8_t b) { return b >= 0x80; }) > 40000);
  CHECK_THROWS(random_bytes(10, 0, 1));
  CHECK_THROWS(random_bytes(10, 257, 1));
}

TEST_CASE("DNA has E. coli composition", "[generators]") {
  const auto dna = random_dna(1 << 20, 11);
  std::array<std::size_t, 256> count{};
  for (auto b : dna) ++count[b];
  CHECK(count['a'] + count['c'] + count['g'] + count['t'] == dna.size());
  for (char base : {'a', 'c', 'g', 't'}) {
    const double share = static_cast<double>(count[static_cast<unsigned char>(base)]) / dna.size();
    CHECK(share == Approx(0.25).margin(0.01));
  }
}

TEST_CASE("English-like text looks like English", "[generators]") {
  const auto text = random_english(1 << 20, 5);
  REQUIRE(text.size() == (1u << 20));
  std::array<std::size_t, 256> count{};
  for (auto b : text) ++count[b];
  for (std::size_t b = 0x80; b < 256; ++b) CHECK(count[b] == 0);
  CHECK(count[' '] > text.size() / 8);     // words of about four letters
  CHECK(count['e'] > count['z'] * 20);     // English letter frequencies
  CHECK(count['\n'] > text.size() / 100);  // lines of about 70 characters
  CHECK(count['.'] > 0);
  CHECK(count['A'] + count['T'] + count['S'] > 0);  // capitalized sentence starts
}

TEST_CASE("random floats stay in range", "[generators]") {
  const auto v = random_floats(10000, 1, -2.0f, 3.0f);
  CHECK(*std::min_element(v.begin(), v.end()) >= -2.0f);
  CHECK(*std::max_element(v.begin(), v.end()) < 3.0f);
  Rng rng(9);
  for (int i = 0; i < 10000; ++i) CHECK(rng.below(7) < 7);
}
