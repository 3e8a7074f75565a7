// The six CPU matchers (common/matchers/) and the two comparison matchers against the brute-force
// oracle: seeded random cases, hand-made worst cases and traps, and the real corpora when present.
//
// CUDAMATCH_MATCHER_CASES sets the number of random cases (default 100000; the valgrind run uses fewer).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "byte_strings.hpp"
#include "common/brute_force.hpp"
#include "common/corpus.hpp"
#include "common/generators.hpp"
#include "common/matchers/cpu_matcher.hpp"
#include "common/matchers/matcher_detail.hpp"
#include "common/matchers/ssef.hpp"
#include "common/random.hpp"

using namespace cudamatch;

namespace {

using Bytes = std::vector<std::uint8_t>;

using testing::bytes;

Bytes repeat(const std::string& unit, std::size_t n) {
  Bytes out;
  while (out.size() < n) out.push_back(static_cast<std::uint8_t>(unit[out.size() % unit.size()]));
  return out;
}

struct Named {
  std::string name;
  std::unique_ptr<CpuMatcher> matcher;
};

// Every matcher under test for one pattern: the six algorithms, the comparison matchers, and the
// portable versions of the packed algorithms (what a CPU without SSE4.2 runs).
std::vector<Named> every_matcher(ByteView pattern, bool with_portable = true) {
  std::vector<Named> all;
  for (Algorithm a : all_algorithms()) all.push_back({algorithm_name(a), make_cpu_matcher(a, pattern)});
  for (const auto& name : comparison_names()) all.push_back({name, make_comparison_matcher(name, pattern)});
  if (with_portable) {
    all.push_back({"epsm (portable)", detail::make_epsm_matcher(pattern, false)});
    all.push_back({"ssef (portable)", detail::make_ssef_matcher(pattern, false)});
  }
  return all;
}

std::string show(const Bytes& b, std::size_t limit = 48) {
  std::ostringstream os;
  os << std::hex;
  for (std::size_t i = 0; i < b.size() && i < limit; ++i) os << (i ? " " : "") << static_cast<unsigned>(b[i]);
  if (b.size() > limit) os << " ... (" << std::dec << b.size() << " bytes)";
  return os.str();
}

std::string first_difference(const std::vector<std::uint64_t>& got, const std::vector<std::uint64_t>& want) {
  std::ostringstream os;
  os << got.size() << " offsets, expected " << want.size();
  for (std::size_t i = 0; i < got.size() || i < want.size(); ++i) {
    if (i >= got.size() || i >= want.size() || got[i] != want[i]) {
      os << "; first difference at index " << i << ": got "
         << (i < got.size() ? std::to_string(got[i]) : std::string("nothing")) << ", expected "
         << (i < want.size() ? std::to_string(want[i]) : std::string("nothing"));
      break;
    }
  }
  return os.str();
}

// Every matcher against brute force on one input: find_all (with `base`, appended after a sentinel)
// and count. Returns a description of the first disagreement, or "" when all agree.
std::string disagreement(const Bytes& text, const Bytes& pattern, std::uint64_t base, bool with_portable = true) {
  const std::vector<std::uint64_t> offsets = brute_force_find_all(text, pattern);
  const std::uint64_t sentinel = 0xDEADBEEFull;
  std::vector<std::uint64_t> want;
  want.reserve(offsets.size() + 1);
  want.push_back(sentinel);
  for (std::uint64_t o : offsets) want.push_back(base + o);
  for (const auto& [name, matcher] : every_matcher(pattern, with_portable)) {
    std::vector<std::uint64_t> got = {sentinel};
    matcher->find_all(text, base, got);
    const std::uint64_t counted = matcher->count(text);
    if (got != want || counted != offsets.size()) {
      std::ostringstream os;
      os << name << ": n=" << text.size() << " m=" << pattern.size() << " base=" << base << ": find_all gave "
         << first_difference(got, want) << " (the sentinel first), count gave " << counted << " expected "
         << offsets.size() << "\n  pattern: " << show(pattern) << "\n  text: " << show(text);
      return os.str();
    }
  }
  return "";
}

// Checks one case inside a loop; returns false (after reporting) on a disagreement.
bool agrees(const Bytes& text, const Bytes& pattern, std::uint64_t base = 1000, bool with_portable = true) {
  const std::string problem = disagreement(text, pattern, base, with_portable);
  if (problem.empty()) return true;
  FAIL_CHECK(problem);
  return false;
}

std::size_t random_case_count() {
  const char* value = std::getenv("CUDAMATCH_MATCHER_CASES");
  if (value == nullptr || value[0] == '\0') return 100000;
  return static_cast<std::size_t>(std::strtoull(value, nullptr, 10));
}

Bytes slice(const Bytes& text, std::size_t at, std::size_t m) {
  return Bytes(text.begin() + static_cast<std::ptrdiff_t>(at), text.begin() + static_cast<std::ptrdiff_t>(at + m));
}

}  // namespace

TEST_CASE("cpu matchers agree with brute force on seeded random cases", "[matchers]") {
  const std::size_t cases = random_case_count();
  const unsigned alphabets[] = {2, 4, 26, 256};
  Rng rng(0x6D617463686572ull);
  std::size_t failures = 0;
  std::size_t with_matches = 0;
  for (std::size_t c = 0; c < cases && failures < 5; ++c) {
    const unsigned sigma = alphabets[c % 4];
    std::size_t n = 0;
    std::size_t m = 0;
    const std::uint64_t size_class = rng.below(100);
    if (size_class < 45) {
      n = rng.below(70);  // tiny texts: shorter than one SIMD step, shorter than 16
    } else if (size_class < 80) {
      n = rng.below(600);
    } else if (size_class < 97) {
      n = rng.below(4001);
    } else {
      n = 4096 + rng.below(2048);  // long patterns, up to 4096
    }
    if (size_class >= 97) {
      m = 1 + rng.below(4096);
    } else if (rng.below(3) == 0) {
      m = 1 + rng.below(n + 1 < 40 ? n + 1 : 40);  // short patterns, where the packed algorithms switch
    } else {
      m = 1 + rng.below(n + 1);  // 1 .. n+1
    }
    const Bytes text = random_bytes(n, sigma, rng.next());
    Bytes pattern = random_bytes(m, sigma, rng.next());
    if (m <= n && rng.below(2) == 0) pattern = slice(text, rng.below(n - m + 1), m);  // planted
    const std::uint64_t base = 1 + rng.below(std::uint64_t{1} << 40);
    // The portable packed versions on one case in four (they are the same scan as the SSE ones).
    const bool with_portable = c % 4 == 3;
    const std::string problem = disagreement(text, pattern, base, with_portable);
    if (!problem.empty()) {
      ++failures;
      FAIL_CHECK("random case " << c << " (alphabet " << sigma << "): " << problem);
    }
    if (!brute_force_find_all(text, pattern).empty()) ++with_matches;
  }
  CHECK(failures == 0);
  // Planting makes sure that a good share of the cases have occurrences to find.
  CHECK(with_matches * 4 >= cases);
}

TEST_CASE("cpu matchers: all-a texts and patterns, overlapping matches everywhere", "[matchers]") {
  const std::vector<std::size_t> lengths = {0,   1,   2,   3,   7,   8,   15,   16,   17,   31,   32,  33,  47,
                                            48,  63,  64,  65,  79,  80,  81,   127,  128,  129,  143, 144, 145,
                                            255, 256, 257, 511, 512, 513, 1000, 1023, 1024, 1025, 4096};
  for (std::uint8_t byte : {std::uint8_t{'a'}, std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
    for (std::size_t n : lengths) {
      const Bytes text(n, byte);
      for (std::size_t m = 1; m <= n + 1; ++m) {
        // Every m up to 80, then the lengths above, and n-1, n, n+1.
        bool wanted = m <= 80 || m + 1 >= n;
        for (std::size_t l : lengths) wanted = wanted || l == m;
        if (!wanted) continue;
        const Bytes pattern(m, byte);
        std::vector<std::uint64_t> expected;  // every alignment, base 7
        for (std::size_t s = 0; s + m <= n; ++s) expected.push_back(7 + s);
        INFO("byte " << static_cast<unsigned>(byte) << " n=" << n << " m=" << m);
        for (const auto& [name, matcher] : every_matcher(pattern)) {
          INFO(name);
          REQUIRE(matcher->count(text) == expected.size());
          std::vector<std::uint64_t> got;
          matcher->find_all(text, 7, got);
          REQUIRE(got == expected);
        }
      }
    }
  }
}

TEST_CASE("cpu matchers: periodic patterns", "[matchers]") {
  const std::vector<std::string> units = {"ab",     "aab",      "aabaab",           "abc", "aaab", "abaababa",
                                          "abcabd", "aaaaaaab", "abcdefghijklmnopq"};
  Rng rng(77);
  for (const auto& unit : units) {
    for (std::size_t n : {std::size_t{15}, std::size_t{16}, std::size_t{64}, std::size_t{65}, std::size_t{200},
                          std::size_t{1000}, std::size_t{1601}}) {
      Bytes text = repeat(unit, n);
      for (std::size_t m : {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{5}, std::size_t{8},
                            std::size_t{15}, std::size_t{16}, std::size_t{17}, std::size_t{31}, std::size_t{32},
                            std::size_t{33}, std::size_t{64}, std::size_t{100}, std::size_t{256}}) {
        if (m > n) continue;
        for (std::size_t shift = 0; shift < unit.size() && shift + m <= n; ++shift) {
          const Bytes pattern = slice(text, shift, m);
          REQUIRE(agrees(text, pattern));
          // The same with one byte of the text broken: the periodic run is interrupted.
          Bytes broken = text;
          broken[rng.below(n)] = 'z';
          REQUIRE(agrees(broken, pattern));
        }
      }
    }
  }
}

TEST_CASE("cpu matchers: matches at 0 and n-m, pattern equal to the text, pattern one byte longer", "[matchers]") {
  Rng rng(5);
  for (std::size_t n = 1; n <= 300; ++n) {
    for (unsigned sigma : {2u, 26u, 256u}) {
      const Bytes text = random_bytes(n, sigma, rng.next());
      REQUIRE(agrees(text, text));  // pattern == text: one match at 0
      Bytes longer = text;
      longer.push_back(text[0]);
      REQUIRE(agrees(text, longer));  // m = n + 1: none
      const std::size_t m = 1 + rng.below(n);
      REQUIRE(agrees(text, slice(text, 0, m)));      // a match at 0
      REQUIRE(agrees(text, slice(text, n - m, m)));  // a match at n - m
      CHECK(make_cpu_matcher(Algorithm::ssef, text)->count(text) == 1);
    }
  }
}

TEST_CASE("cpu matchers: texts shorter than 16 bytes with every pattern length", "[matchers]") {
  Rng rng(16);
  for (std::size_t n = 0; n <= 17; ++n) {
    for (unsigned sigma : {1u, 2u, 256u}) {
      const Bytes text = random_bytes(n, sigma, rng.next());
      for (std::size_t m = 1; m <= n + 1; ++m) {
        for (std::size_t at = 0; at + m <= n; ++at) REQUIRE(agrees(text, slice(text, at, m)));
        REQUIRE(agrees(text, random_bytes(m, sigma, rng.next())));
      }
    }
  }
}

TEST_CASE("cpu matchers: occurrences that end at the last byte of the text", "[matchers]") {
  Rng rng(64);
  for (std::size_t m : {8u, 16u, 24u, 32u, 48u, 64u}) {
    for (std::size_t k = 0; k <= 12; ++k) {
      for (int delta = -2; delta <= 2; ++delta) {
        const std::ptrdiff_t signed_n = static_cast<std::ptrdiff_t>(16 * k) + delta;
        if (signed_n < static_cast<std::ptrdiff_t>(m)) continue;
        const std::size_t n = static_cast<std::size_t>(signed_n);
        for (unsigned sigma : {4u, 256u}) {
          const Bytes text = random_bytes(n, sigma, rng.next());
          const Bytes pattern = slice(text, n - m, m);
          INFO("m=" << m << " n=" << n);
          REQUIRE(agrees(text, pattern));
          for (const auto& [name, matcher] : every_matcher(pattern)) {
            std::vector<std::uint64_t> got;
            matcher->find_all(text, 0, got);
            INFO(name);
            REQUIRE(!got.empty());
            CHECK(got.back() == n - m);
          }
        }
      }
    }
  }
}

TEST_CASE("cpu matchers: NUL and bytes 0x80..0xFF in texts and patterns", "[matchers]") {
  const std::uint8_t symbols[] = {0x00, 0x80, 0xFF, 0x7F, 0x01, 0xFE};
  Rng rng(0x80);
  for (int trial = 0; trial < 400; ++trial) {
    const std::size_t n = rng.below(300);
    Bytes text(n);
    for (auto& b : text) b = symbols[rng.below(trial % 2 == 0 ? 2 : 6)];
    const std::size_t m = 1 + rng.below(n < 70 ? n + 1 : 70);
    Bytes pattern(m);
    for (auto& b : pattern) b = symbols[rng.below(trial % 2 == 0 ? 2 : 6)];
    if (m <= n && rng.below(2) == 0) pattern = slice(text, rng.below(n - m + 1), m);
    REQUIRE(agrees(text, pattern));
  }
  // A pattern of NULs must not match the zero padding after a short text.
  const Bytes zeros(5, 0x00);
  for (const auto& [name, matcher] : every_matcher(Bytes(6, 0x00))) {
    INFO(name);
    CHECK(matcher->count(zeros) == 0);
  }
  CHECK(make_cpu_matcher(Algorithm::epsm, Bytes{0x00, 0x00})->count(Bytes{0x00, 0x00, 0x00}) == 2);
}

TEST_CASE("cpu matchers: one matcher, many texts and chunks", "[matchers]") {
  const Bytes text = random_english(20000, 9);
  const Bytes pattern = slice(text, 12345, 5);
  const auto expected = brute_force_find_all(text, pattern);
  for (const auto& [name, matcher] : every_matcher(pattern)) {
    INFO(name);
    CHECK(matcher->pattern() == pattern);
    // Chunks that overlap by m - 1 bytes, each searched with its file offset as base.
    std::vector<std::uint64_t> got;
    const std::size_t chunk = 4096;
    for (std::size_t start = 0; start < text.size(); start += chunk) {
      const std::size_t end = std::min(text.size(), start + chunk + pattern.size() - 1);
      matcher->find_all(ByteView(text.data() + start, end - start), start, got);
    }
    CHECK(got == expected);
    CHECK(matcher->count(text) == expected.size());
    CHECK(matcher->count(ByteView()) == 0);  // an empty text
  }
}

TEST_CASE("cpu matchers agree with brute force on the corpora", "[matchers][corpus]") {
  const std::vector<std::size_t> lengths = {2,  3,  4,  5,  6,  7,  8,   12,  15,  16,
                                            17, 24, 31, 32, 33, 64, 128, 256, 512, 1024};
  Rng rng(1992);
  for (const auto& spec : corpus_specs()) {
    const Corpus corpus = load_corpus(spec.name);
    if (corpus.synthetic) {
      WARN("skipped " << spec.name << ": not in " << default_data_dir()
                      << " (python3 datasets/fetch.py, or set CUDAMATCH_DATA)");
      continue;
    }
    const Bytes& text = corpus.bytes;
    for (std::size_t m : lengths) {
      const Bytes pattern = slice(text, rng.below(text.size() - m + 1), m);
      const auto expected = brute_force_find_all(text, pattern);
      INFO(spec.name << " m=" << m << " pattern " << show(pattern));
      for (const auto& [name, matcher] : every_matcher(pattern, false)) {
        INFO(name);
        std::vector<std::uint64_t> got;
        matcher->find_all(text, 0, got);
        REQUIRE(got == expected);
        REQUIRE(matcher->count(text) == expected.size());
      }
    }
  }
}

TEST_CASE("cpu matcher names: round trip, unknown names", "[matchers]") {
  const std::vector<std::string> names = {"bf", "kmp", "bm", "sunday", "epsm", "ssef"};
  REQUIRE(all_algorithms().size() == names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    const Algorithm a = all_algorithms()[i];
    CHECK(algorithm_name(a) == names[i]);
    REQUIRE(parse_algorithm(names[i]).has_value());
    CHECK(*parse_algorithm(names[i]) == a);
    CHECK(*parse_algorithm(algorithm_name(a)) == a);
  }
  for (const char* unknown : {"", "BF", "Kmp", "brute", "ssef ", " bm", "epsm-a", "memmem", "std-bmh"}) {
    CHECK_FALSE(parse_algorithm(unknown).has_value());
  }
  CHECK(comparison_names() == std::vector<std::string>{"memmem", "std-bmh"});
  CHECK_THROWS_AS(make_comparison_matcher("grep", bytes("abc")), std::invalid_argument);
}

TEST_CASE("cpu matchers: an empty pattern is an error for every algorithm", "[matchers]") {
  const Bytes empty;
  for (Algorithm a : all_algorithms()) {
    INFO(algorithm_name(a));
    CHECK_THROWS_AS(make_cpu_matcher(a, empty), EmptyPatternError);
  }
  for (const auto& name : comparison_names()) CHECK_THROWS_AS(make_comparison_matcher(name, empty), EmptyPatternError);
  CHECK_THROWS_AS(detail::make_epsm_matcher(empty, false), EmptyPatternError);
  CHECK_THROWS_AS(detail::make_ssef_matcher(empty, false), EmptyPatternError);
}

TEST_CASE("ssef chooses its fingerprint bit from the pattern", "[matchers]") {
  SECTION("English: never bit 7, which is 0 in all ASCII") {
    CHECK(ssef_fingerprint_bit(bytes("In the beginning God created the heaven and the earth.")) != 7);
    const Bytes english = random_english(5000, 3);
    for (std::size_t at = 0; at + 64 <= english.size(); at += 97) {
      for (std::size_t m : {2u, 8u, 32u, 64u}) {
        const Bytes pattern = slice(english, at, m);
        const int bit = ssef_fingerprint_bit(pattern);
        INFO(std::string(pattern.begin(), pattern.end()));
        CHECK(bit != 7);
        // The chosen bit is not constant over the pattern (unless every bit is).
        bool varies = false;
        for (auto b : pattern) varies = varies || (((b >> bit) & 1) != ((pattern[0] >> bit) & 1));
        bool any_varies = false;
        for (auto b : pattern) any_varies = any_varies || b != pattern[0];
        CHECK(varies == any_varies);
      }
    }
  }
  SECTION("DNA: a bit that splits the bases") {
    const Bytes acgt = repeat("acgt", 64);
    const int bit = ssef_fingerprint_bit(acgt);
    CHECK((bit == 1 || bit == 2));  // a=0x61 c=0x63 g=0x67 t=0x74: bits 1 and 2 split them 2:2
    const Bytes dna = random_dna(64, 11);
    const int dna_bit = ssef_fingerprint_bit(dna);
    CHECK((dna_bit == 1 || dna_bit == 2));
    // Two bits (what blocks of 8 bytes use) tell all four bases apart.
    const std::vector<int> two = ssef_fingerprint_bits(acgt, 2);
    REQUIRE(two.size() == 2);
    std::vector<int> codes;
    for (const unsigned char base : std::string("acgt")) {
      const auto b = static_cast<unsigned>(base);
      codes.push_back(static_cast<int>(((b >> two[0]) & 1u) | (((b >> two[1]) & 1u) << 1)));
    }
    std::sort(codes.begin(), codes.end());
    CHECK(std::unique(codes.begin(), codes.end()) == codes.end());
  }
  SECTION("the choice follows the statistics") {
    CHECK(ssef_fingerprint_bit(Bytes{0x00, 0x80, 0x00, 0x80}) == 7);  // only bit 7 varies
    CHECK(ssef_fingerprint_bit(Bytes{0x10, 0x00, 0x10, 0x00}) == 4);
    CHECK(ssef_fingerprint_bit(Bytes(10, 'a')) == 0);  // nothing varies: the lowest
    CHECK(ssef_fingerprint_bits(bytes("abc"), 8) == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
  }
}
