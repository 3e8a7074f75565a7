// Lesson 12 - Knuth-Morris-Pratt on the GPU. Every version against the CPU brute force; [todo] marks
// the tests of the starter's TODOs (v1, v2).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "byte_strings.hpp"
#include "common/brute_force.hpp"
#include "common/generators.hpp"
#include "failure_table.hpp"
#include "gpu_matcher_checks.hpp"
#include "kmp_gpu.hpp"
#include "kmp_v3.hpp"
#include "version_checks.hpp"

using namespace cudamatch;
using namespace cudamatch::testing;

namespace {

// Where the versions split the text, for m <= 64: v2's rounds of 128 bytes, the chunks of 256
// positions of v0 to v2, and blocks of 256 such chunks; for m = 256, chunks of 1024.
const Edges kEdges{"chunk and block edges", {128, 256, 1024, 65536}};
// v3's: its threads' strides, its tiles of kV3Threads strides and the bytes staged past them (kmp_v3.hpp).
constexpr std::size_t kV3Tile = lesson12::kV3Threads * lesson12::kStride;
const Edges kStrideEdges{"stride and tile edges", {lesson12::kStride, kV3Tile, kV3Tile + lesson12::kStagedPastTile}};

const GpuVersion& version(int number) { return kmp_gpu().version(number); }

std::vector<std::uint8_t> bytes(const std::string& s) { return {s.begin(), s.end()}; }

// The Fibonacci word "abaababaabaab...": no period, borders at every Fibonacci length.
std::vector<std::uint8_t> fibonacci_word(std::size_t n) {
  std::string previous = "a", word = "ab";
  while (word.size() < n) {
    std::string longer = word + previous;
    previous = std::move(word);
    word = std::move(longer);
  }
  return bytes(word.substr(0, n));
}

// Periodic texts searched for their own prefixes (an occurrence every period, the automaton's state
// high across every chunk edge) and for those prefixes with the last byte changed (the near misses
// that send the failure loop down its longest chains).
void periodic_cases(const GpuVersion& v) {
  const bool quick = quick_tests();  // the sanitizer runs: one block edge, fewer lengths
  const std::size_t n = quick ? 65536 + 77 : 2 * 65536 + 77;
  std::vector<std::vector<std::uint8_t>> texts = {fibonacci_word(n)};
  for (const char* period : {"a", "ab", "aab", "abcabd"}) texts.push_back(repeat_to(period, n));
  const std::vector<std::size_t> lengths =
      quick ? std::vector<std::size_t>{1, 3, 17, 257} : std::vector<std::size_t>{1, 2, 3, 7, 16, 17, 64, 257, 1000};
  for (const auto& text : texts) {
    for (std::size_t m : lengths) {
      std::vector<std::uint8_t> pattern(text.begin(), text.begin() + static_cast<long>(m));
      check_against_brute_force(v, text, pattern);
      pattern.back() = 'z';
      check_against_brute_force(v, text, pattern);
    }
  }
}

// next[] by its definition (failure_table.hpp), for short patterns.
std::vector<std::int32_t> failure_table_by_definition(const std::vector<std::uint8_t>& p) {
  const std::size_t m = p.size();
  const auto is_border = [&](std::size_t k, std::size_t i) {
    return std::equal(p.begin(), p.begin() + static_cast<long>(k), p.begin() + static_cast<long>(i - k));
  };
  std::vector<std::int32_t> next(m + 1, -1);
  for (std::size_t i = 0; i <= m; ++i) {
    for (std::size_t k = i; k-- > 0;) {
      if (is_border(k, i) && (i == m || p[k] != p[i])) {
        next[i] = static_cast<std::int32_t>(k);
        break;
      }
    }
  }
  return next;
}

std::vector<std::vector<std::uint8_t>> table_test_patterns() {
  std::vector<std::vector<std::uint8_t>> patterns;
  std::uint64_t seed = 80;
  for (unsigned sigma : {2u, 4u, 26u, 256u}) {
    for (std::size_t m : {1, 2, 3, 5, 16, 17, 100, 1000, 5000}) patterns.push_back(random_bytes(m, sigma, ++seed));
  }
  for (std::size_t m : {1, 2, 17, 300, 5000}) {
    patterns.push_back(repeat_to("a", m));
    patterns.push_back(repeat_to("ab", m));
    patterns.push_back(fibonacci_word(m));
    auto almost = repeat_to("a", m);
    almost.back() = 'b';
    patterns.push_back(almost);
  }
  return patterns;
}

}  // namespace

TEST_CASE("the serial failure table matches its definition") {
  for (const auto& pattern : table_test_patterns()) {
    if (pattern.size() > 100) continue;  // the definition is cubic
    INFO("pattern " << std::string(pattern.begin(), pattern.end()));
    CHECK(lesson12::failure_table(pattern) == failure_table_by_definition(pattern));
  }
}

TEST_CASE("the failure table built by a block equals the serial one", "[gpu]") {
  const auto patterns = table_test_patterns();
  for (std::size_t k = 0; k < patterns.size(); ++k) {
    const auto& pattern = patterns[k];
    INFO("table_test_patterns()[" << k << "], m " << pattern.size());
    CHECK(lesson12::failure_table_on_device(pattern) == lesson12::failure_table(pattern));
  }
}

const VersionChecks checks(kmp_gpu(), 800,
                           [](int number) -> const Edges& { return number < 3 ? kEdges : kStrideEdges; },
                           {{"finds periodic patterns in periodic texts",
                             [](const GpuVersion& v, int) { periodic_cases(v); }}});

TEST_CASE("v1 falls back to v0 for failure tables too large for shared memory", "[gpu]") {
  // 12,000 entries of next[] and the pattern take 60 KB: more than 48 KB.
  const auto text = random_bytes(70000, 2, 11);
  check_against_brute_force(version(1), text, std::vector<std::uint8_t>(text.begin() + 12345, text.begin() + 24345));
  check_against_brute_force(version(1), repeat_to("a", 30000), repeat_to("a", 12000));
}

TEST_CASE("v2 falls back to v1 for tables too large to fit beside its text rows", "[gpu][todo]") {
  // m = 4,000: a 20 KB table fits alone (v1) but not beside v2's 33 KB of rows.
  const auto text = random_bytes(70000, 2, 12);
  check_against_brute_force(version(2), text, std::vector<std::uint8_t>(text.begin() + 23456, text.begin() + 27456));
  check_against_brute_force(version(2), repeat_to("ab", 30000), repeat_to("ab", 4000));
}

TEST_CASE("a batch of v2 counts equals the counts one by one", "[gpu][todo]") {
  // Patterns for every path of v2 queued together: the DFA, the failure loop, both fallbacks, m > n.
  const auto text = random_bytes(300001, 4, 13);
  std::vector<std::vector<std::uint8_t>> patterns;
  for (std::size_t m : {1, 3, 16, 17, 300, 4000, 12000}) {
    patterns.emplace_back(text.begin() + 1000, text.begin() + 1000 + static_cast<long>(m));
  }
  patterns.push_back(random_bytes(300002, 4, 14));
  check_batch_counts(version(2), text, patterns);
}
