// The Aho-Corasick reference (common/aho_corasick.hpp) against an oracle that searches each pattern on
// its own with brute force and sorts the merged matches: seeded random sets over small alphabets and
// all bytes, hand-checked prefix/suffix/duplicate cases, edge cases, and the memory of 100,000 patterns.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "byte_strings.hpp"
#include "common/aho_corasick.hpp"
#include "common/brute_force.hpp"
#include "common/corpus.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"

using namespace cudamatch;

namespace {

using Bytes = std::vector<std::uint8_t>;
using Matches = std::vector<PatternMatch>;

using testing::bytes;

std::vector<Bytes> byte_patterns(const std::vector<std::string>& patterns) {
  std::vector<Bytes> out;
  for (const auto& p : patterns) out.push_back(bytes(p));
  return out;
}

std::vector<ByteView> views(const std::vector<Bytes>& patterns) { return {patterns.begin(), patterns.end()}; }

Bytes slice(const Bytes& text, std::size_t at, std::size_t m) {
  return Bytes(text.begin() + static_cast<std::ptrdiff_t>(at), text.begin() + static_cast<std::ptrdiff_t>(at + m));
}

// The oracle: each pattern searched on its own, the matches merged and sorted.
Matches oracle(const Bytes& text, const std::vector<Bytes>& patterns, std::uint64_t base = 0) {
  Matches all;
  for (std::size_t k = 0; k < patterns.size(); ++k) {
    for (std::uint64_t offset : brute_force_find_all(text, patterns[k]))
      all.push_back({base + offset, static_cast<std::uint32_t>(k)});
  }
  std::sort(all.begin(), all.end());
  return all;
}

Matches find_all(const AhoCorasick& automaton, const Bytes& text, std::uint64_t base = 0) {
  Matches out;
  automaton.find_all(text, base, out);
  return out;
}

std::string show(const Matches& matches, std::size_t limit = 12) {
  std::ostringstream os;
  os << matches.size() << " matches:";
  for (std::size_t i = 0; i < matches.size() && i < limit; ++i)
    os << " (" << matches[i].offset << ", " << matches[i].pattern << ")";
  return os.str();
}

// find_all (appending after a sentinel, with `base`) and count against the oracle. Returns a description
// of the first disagreement, or "" when they agree.
std::string disagreement(const Bytes& text, const std::vector<Bytes>& patterns, std::uint64_t base) {
  const AhoCorasick automaton(views(patterns));
  const PatternMatch sentinel{0xDEADBEEF, 7};
  Matches want = {sentinel};
  const Matches expected = oracle(text, patterns, base);
  want.insert(want.end(), expected.begin(), expected.end());
  Matches got = {sentinel};
  automaton.find_all(text, base, got);
  std::ostringstream os;
  if (got != want) os << "find_all gave " << show(got) << ", expected " << show(want) << " (the sentinel first)";
  const PatternCounts counts = automaton.count(text);
  if (counts.total != expected.size()) os << "; count gave " << counts.total << ", expected " << expected.size();
  for (std::size_t k = 0; k < patterns.size(); ++k) {
    const std::uint64_t of_k = brute_force_count(text, patterns[k]);
    if (counts.per_pattern.at(k) != of_k) {
      os << "; count of pattern " << k << " gave " << counts.per_pattern[k] << ", expected " << of_k;
      break;
    }
  }
  // The count of a piece after the bytes it shares with the one before: the occurrences ending past them.
  const std::size_t seen = text.size() / 3;
  std::uint64_t after = 0;
  for (const PatternMatch& m : expected) after += m.offset - base + patterns[m.pattern].size() > seen ? 1 : 0;
  const PatternCounts tail = automaton.count(text, seen);
  if (tail.total != after) os << "; count after " << seen << " bytes gave " << tail.total << ", expected " << after;
  std::size_t longest = 0;
  for (const Bytes& p : patterns) longest = std::max(longest, p.size());
  if (automaton.longest_pattern() != longest) os << "; longest pattern " << automaton.longest_pattern();
  if (os.tellp() > 0) os << " (n=" << text.size() << ", " << patterns.size() << " patterns)";
  return os.str();
}

bool agrees(const Bytes& text, const std::vector<Bytes>& patterns, std::uint64_t base = 1000) {
  const std::string problem = disagreement(text, patterns, base);
  if (problem.empty()) return true;
  FAIL_CHECK(problem);
  return false;
}

}  // namespace

TEST_CASE("aho-corasick agrees with brute force on seeded random pattern sets", "[aho-corasick]") {
  const unsigned alphabets[] = {2, 4, 256};
  Rng rng(0xAC0A5E75ull);
  std::size_t failures = 0;
  std::size_t with_matches = 0;
  const std::size_t cases = 3000;
  for (std::size_t c = 0; c < cases && failures < 5; ++c) {
    const unsigned sigma = alphabets[c % 3];
    const std::size_t n = rng.below(4) == 0 ? rng.below(40) : rng.below(3000);
    const Bytes text = random_bytes(n, sigma, rng.next());
    std::vector<Bytes> patterns(1 + rng.below(40));
    const std::size_t longest = 1 + rng.below(rng.below(5) == 0 ? 200 : 12);
    for (std::size_t k = 0; k < patterns.size(); ++k) {
      const std::size_t m = 1 + rng.below(longest);
      patterns[k] = random_bytes(m, sigma, rng.next());
      if (m <= n && rng.below(2) == 0) patterns[k] = slice(text, rng.below(n - m + 1), m);  // planted
      if (k > 0 && rng.below(10) == 0) patterns[k] = patterns[rng.below(k)];                // a duplicate
    }
    const std::string problem = disagreement(text, patterns, rng.below(std::uint64_t{1} << 40));
    if (!problem.empty()) {
      ++failures;
      FAIL_CHECK("random case " << c << " (alphabet " << sigma << "): " << problem);
    }
    if (!oracle(text, patterns).empty()) ++with_matches;
  }
  CHECK(failures == 0);
  CHECK(with_matches * 2 >= cases);  // planting gives most cases matches to find
}

TEST_CASE("aho-corasick: all-equal texts, every pattern at every offset", "[aho-corasick]") {
  for (std::uint8_t byte : {std::uint8_t{'a'}, std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
    const std::vector<Bytes> patterns = {Bytes(1, byte), Bytes(2, byte), Bytes(3, byte)};
    const AhoCorasick automaton(views(patterns));
    for (std::size_t n : {0u, 1u, 2u, 3u, 4u, 10u, 1000u}) {
      Matches expected;
      for (std::size_t offset = 0; offset < n; ++offset) {
        for (std::uint32_t k = 0; k < 3; ++k) {
          if (offset + k + 1 <= n) expected.push_back({offset, k});
        }
      }
      INFO("byte " << unsigned{byte} << ", n=" << n);
      const Bytes text(n, byte);
      CHECK(find_all(automaton, text) == expected);
      const PatternCounts counts = automaton.count(text);
      CHECK(counts.total == expected.size());
      CHECK(counts.per_pattern == std::vector<std::uint64_t>{n, n >= 1 ? n - 1 : 0, n >= 2 ? n - 2 : 0});
    }
  }
}

TEST_CASE("aho-corasick: patterns inside other patterns are found through the output links", "[aho-corasick]") {
  SECTION("he, she, his, hers in 'ushers' (the paper's example)") {
    const AhoCorasick automaton(views(byte_patterns({"he", "she", "his", "hers"})));
    CHECK(find_all(automaton, bytes("ushers")) == Matches{{1, 1}, {2, 0}, {2, 3}});
  }
  SECTION("a suffix reached past a state where no pattern ends") {
    // After "abcd" the suffix chain is abcd (a pattern), bcd (only a prefix of bcde), d (a pattern).
    const AhoCorasick automaton(views(byte_patterns({"abcd", "bcde", "d"})));
    CHECK(find_all(automaton, bytes("abcd")) == Matches{{0, 0}, {3, 2}});
    CHECK(find_all(automaton, bytes("abcde")) == Matches{{0, 0}, {1, 1}, {3, 2}});
  }
  SECTION("every suffix of a pattern, and every prefix") {
    const AhoCorasick suffixes(views(byte_patterns({"abcd", "bcd", "cd", "d"})));
    CHECK(find_all(suffixes, bytes("xabcd")) == Matches{{1, 0}, {2, 1}, {3, 2}, {4, 3}});
    const AhoCorasick prefixes(views(byte_patterns({"abcd", "abc", "ab", "a"})));
    CHECK(find_all(prefixes, bytes("xabcd")) == Matches{{1, 0}, {1, 1}, {1, 2}, {1, 3}});
    CHECK(find_all(prefixes, bytes("abab")) == Matches{{0, 2}, {0, 3}, {2, 2}, {2, 3}});
  }
  SECTION("an inner part found while a longer pattern fails") {
    const AhoCorasick automaton(views(byte_patterns({"abcabd", "cab", "b"})));
    CHECK(find_all(automaton, bytes("abcabc")) == Matches{{1, 2}, {2, 1}, {4, 2}});
  }
}

TEST_CASE("aho-corasick: duplicates are reported under each of their indices", "[aho-corasick]") {
  const AhoCorasick automaton(views(byte_patterns({"ab", "x", "ab", "ab", "b"})));
  CHECK(automaton.pattern_count() == 5);
  CHECK(find_all(automaton, bytes("abxab")) ==
        Matches{{0, 0}, {0, 2}, {0, 3}, {1, 4}, {2, 1}, {3, 0}, {3, 2}, {3, 3}, {4, 4}});
  const PatternCounts counts = automaton.count(bytes("abxab"));
  CHECK(counts.per_pattern == std::vector<std::uint64_t>{2, 1, 2, 2, 2});
  CHECK(counts.total == 9);
}

TEST_CASE("aho-corasick: NUL and bytes 0x80..0xFF in texts and patterns", "[aho-corasick]") {
  const std::uint8_t symbols[] = {0x00, 0xFF, 0x80, 0x7F, 0x01};
  Rng rng(0x00FF);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t alphabet = trial % 2 == 0 ? 2 : 5;
    Bytes text(rng.below(500));
    for (auto& b : text) b = symbols[rng.below(alphabet)];
    std::vector<Bytes> patterns(1 + rng.below(10));
    for (Bytes& p : patterns) {
      p.resize(1 + rng.below(8));
      for (auto& b : p) b = symbols[rng.below(alphabet)];
    }
    REQUIRE(agrees(text, patterns));
  }
  // Patterns of NULs against NULs, and 0xFF against 0xFF: the byte is data, not a terminator or a sign.
  CHECK(AhoCorasick(views({Bytes(2, 0x00), Bytes(1, 0xFF)})).count(Bytes(5, 0x00)).per_pattern ==
        std::vector<std::uint64_t>{4, 0});
  CHECK(AhoCorasick(views({Bytes(2, 0x00), Bytes(1, 0xFF)})).count(Bytes(5, 0xFF)).per_pattern ==
        std::vector<std::uint64_t>{0, 5});
}

TEST_CASE("aho-corasick: patterns longer than the text, one pattern, empty texts and sets", "[aho-corasick]") {
  const Bytes text = bytes("abracadabra");
  CHECK(find_all(AhoCorasick(views(byte_patterns({"abracadabra!", "abracadabrax"}))), text).empty());
  REQUIRE(agrees(text, byte_patterns({"abracadabra!", "cad", "abracadabra", "a"})));
  REQUIRE(agrees(text, byte_patterns({"abra"})));
  const AhoCorasick none(views({}));
  CHECK(find_all(none, text).empty());
  CHECK(none.count(text).total == 0);
  const AhoCorasick automaton(views(byte_patterns({"a", "ab"})));
  CHECK(find_all(automaton, Bytes{}).empty());
  CHECK(automaton.count(Bytes{}).per_pattern == std::vector<std::uint64_t>{0, 0});
  Rng rng(1);
  for (std::size_t n = 0; n <= 40; ++n) {
    const Bytes random_text = random_bytes(n, 3, rng.next());
    REQUIRE(agrees(random_text, {random_bytes(1 + rng.below(n + 2), 3, rng.next())}));  // a single pattern
  }
}

TEST_CASE("aho-corasick: 1,000 patterns drawn from the text", "[aho-corasick]") {
  const Bytes text = random_english(40000, 1000);
  Rng rng(1000);
  std::vector<Bytes> patterns;
  for (int k = 0; k < 1000; ++k) {
    const std::size_t m = 1 + rng.below(32);
    patterns.push_back(slice(text, rng.below(text.size() - m + 1), m));
  }
  REQUIRE(agrees(text, patterns, 0));
}

TEST_CASE("aho-corasick: single bytes, and patterns of several KB", "[aho-corasick]") {
  std::vector<Bytes> every_byte;
  for (unsigned b = 0; b < 256; ++b) every_byte.push_back({static_cast<std::uint8_t>(b)});
  const Bytes text = random_bytes(5000, 256, 5);
  const PatternCounts counts = AhoCorasick(views(every_byte)).count(text);
  CHECK(counts.total == text.size());  // exactly one single-byte pattern at each offset
  REQUIRE(agrees(text, every_byte));

  Rng rng(4096);
  const Bytes binary = random_bytes(20000, 2, 6);
  std::vector<Bytes> long_patterns;
  for (std::size_t m : {2000u, 3000u, 4096u, 6000u, 1u, 7u})
    long_patterns.push_back(slice(binary, rng.below(20000 - m), m));
  REQUIRE(agrees(binary, long_patterns));
  // Periodic: "ab" x 1500 occurs at every other offset of "ab" x 4000, beside "ab" and "ba".
  Bytes periodic;
  for (int i = 0; i < 4000; ++i) periodic.insert(periodic.end(), {'a', 'b'});
  REQUIRE(agrees(periodic, {slice(periodic, 0, 3000), slice(periodic, 1, 2999), bytes("ab"), bytes("ba")}));
}

TEST_CASE("aho-corasick: an empty pattern is an error naming it", "[aho-corasick]") {
  const std::vector<Bytes> patterns = {bytes("a"), bytes("b"), Bytes{}};
  CHECK_THROWS_AS(AhoCorasick(views(patterns)), std::invalid_argument);
  CHECK_THROWS_WITH(AhoCorasick(views(patterns)), Catch::Contains("pattern 2 is empty"));
}

TEST_CASE("aho-corasick: 100,000 patterns of 8-32 bytes fit in well under 1 GiB", "[aho-corasick]") {
  const Corpus corpus = load_corpus("bible.txt");  // its synthetic stand-in when absent
  const Bytes& text = corpus.bytes;
  Rng rng(100000);
  std::vector<Bytes> patterns;
  std::size_t pattern_bytes = 0;
  for (int k = 0; k < 100000; ++k) {
    const std::size_t m = 8 + rng.below(25);
    patterns.push_back(slice(text, rng.below(text.size() - m + 1), m));
    pattern_bytes += m;
  }
  const AhoCorasick automaton(views(patterns));
  const std::size_t states = automaton.state_count();
  INFO(states << " states, " << automaton.memory_bytes() << " bytes");
  CHECK(states <= pattern_bytes + 1);
  // The layout of the header: 17 bytes per state, 12 per pattern, the dense rows (4 bytes each).
  CHECK(automaton.memory_bytes() ==
        17 * states + 16 + 12 * patterns.size() + 4 * 256 * std::size_t{AhoCorasick::kDenseStates});
  CHECK(automaton.memory_bytes() < 128u * 1024 * 1024);
  const PatternCounts counts = automaton.count(text);
  for (std::size_t k = 0; k < patterns.size(); k += 5000) {
    INFO("pattern " << k);
    CHECK(counts.per_pattern[k] == brute_force_count(text, patterns[k]));
  }
}
