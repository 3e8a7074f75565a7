// The peers of `cudamatch bench` (peers.hpp): which run, the errors of a bad choice, and Hyperscan's counts
// against brute force (one pattern) and Aho-Corasick (bench --multi's pattern sets). Without Hyperscan built in, its
// test cases print "skipped: Hyperscan is not built in", which CTest reports as skipped
// (tools/cudamatch/CMakeLists.txt).
#include <catch2/catch.hpp>

#include <iostream>
#include <sstream>
#include <thread>

#include "common/aho_corasick.hpp"
#include "common/brute_force.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "pattern_source.hpp"
#include "peer_hyperscan.hpp"
#include "peers.hpp"

using namespace cudamatch;
using namespace cudamatch::cli;

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes bytes(const std::string& s) { return {s.begin(), s.end()}; }

bool hyperscan_built_in_else_skip() {
  if (hyperscan_version()) return true;
  std::cout << "skipped: Hyperscan is not built in (apt-get install libhyperscan-dev, then configure again)\n";
  return false;
}

// Hyperscan with pieces of `piece` bytes against brute force: the offsets (after a sentinel, with a base)
// and the count.
void check_hyperscan(const Bytes& text, const Bytes& pattern, std::size_t piece = kHyperscanLargestScan) {
  const auto matcher = make_hyperscan_matcher(pattern, piece);
  const std::vector<std::uint64_t> want = brute_force_find_all(text, pattern);
  std::vector<std::uint64_t> got = {0xDEADBEEF};
  matcher->find_all(text, 1000, got);
  std::vector<std::uint64_t> expected = {0xDEADBEEF};
  for (std::uint64_t offset : want) expected.push_back(1000 + offset);
  INFO("n " << text.size() << ", m " << pattern.size() << ", pieces of " << piece);
  CHECK(got == expected);
  CHECK(matcher->count(text) == want.size());
}

}  // namespace

TEST_CASE("the peers are memmem, std-bmh and hyperscan where it is built in, each named once", "[cli]") {
  CHECK(peer_names() == std::vector<std::string>{"memmem", "std-bmh", "hyperscan"});
  const bool hyperscan = hyperscan_version().has_value();
  std::ostringstream notes;
  const std::vector<std::string> every = choose_peers({}, notes);
  CHECK(every == (hyperscan ? peer_names() : std::vector<std::string>{"memmem", "std-bmh"}));
  if (hyperscan) {
    CHECK(notes.str().empty());
    CHECK_THAT(hyperscan_status(), Catch::StartsWith("Hyperscan " + *hyperscan_version() + " built in"));
  } else {
    CHECK(notes.str() == "cudamatch: no hyperscan row: " + hyperscan_status() + "\n");
    CHECK_THAT(hyperscan_status(),
               Catch::Contains("not built in") && Catch::Contains("apt-get install libhyperscan-dev"));
  }
  std::ostringstream bare;
  CHECK(choose_peers({""}, bare) == every);  // a bare --peers is the default
  CHECK(bare.str() == notes.str());
  std::ostringstream quiet;  // peers named: nothing to say
  CHECK(choose_peers({"std-bmh", "", "memmem", "std-bmh"}, quiet) == std::vector<std::string>{"std-bmh", "memmem"});
  CHECK_THROWS_WITH(choose_peers({"memmem", "awk"}, quiet),
                    Catch::Equals("unknown peer 'awk' (memmem, std-bmh, hyperscan)"));
  if (hyperscan) {
    CHECK(choose_peers({"hyperscan"}, quiet) == std::vector<std::string>{"hyperscan"});
  } else {
    CHECK_THROWS_WITH(choose_peers({"hyperscan"}, quiet), Catch::Equals("--peers hyperscan: " + hyperscan_status()));
  }
  CHECK(quiet.str().empty());
  for (const std::string& name : every) {
    INFO(name);
    CHECK(make_peer_matcher(name, bytes("aa"))->count(bytes("aaaa")) == 3);
  }
}

TEST_CASE("hyperscan counts every overlapping occurrence, any bytes, as brute force does", "[cli]") {
  if (!hyperscan_built_in_else_skip()) return;
  for (const char* pattern : {"a", "aa", "aaa", "aaaa", "aaaaa"}) {
    for (std::size_t n = 0; n <= 9; ++n) check_hyperscan(Bytes(n, 'a'), bytes(pattern));
  }
  check_hyperscan(bytes("abababa"), bytes("aba"));
  check_hyperscan(bytes("xabcx"), bytes("x"));  // at the first and the last byte
  check_hyperscan(Bytes(100, 0x00), Bytes(3, 0x00));
  check_hyperscan(Bytes(100, 0xFF), Bytes(7, 0xFF));
  check_hyperscan({0x00, 0xFF, 0x00, 0xFF, 0x00, 0x80, 0x00, 0xFF}, {0x00, 0xFF, 0x00});
  check_hyperscan(bytes("AaAa"), bytes("aa"));  // case matters
  check_hyperscan(bytes("short"), bytes("longer than the text"));
  check_hyperscan(bytes("a.*b a.*b"), bytes("a.*b"));  // a literal: no regular-expression meaning
  const Bytes text = random_bytes(20000, 2, 5);
  check_hyperscan(text, Bytes(text.begin() + 100, text.begin() + 1100));  // m = 1000
  CHECK_THROWS_AS(make_hyperscan_matcher({}), EmptyPatternError);
}

TEST_CASE("hyperscan agrees with brute force on random texts, scanned whole and in pieces", "[cli]") {
  if (!hyperscan_built_in_else_skip()) return;
  Rng rng(21);
  for (int trial = 0; trial < 300; ++trial) {
    const std::size_t n = rng.below(2000);
    const Bytes text = random_bytes(n, trial % 3 == 0 ? 256 : 1 + static_cast<unsigned>(rng.below(4)), rng.next());
    const std::size_t m = 1 + rng.below(20);
    Bytes pattern = random_bytes(m, 2, rng.next());
    if (m <= n) pattern.assign(text.begin() + static_cast<long>(rng.below(n - m + 1)), text.end());
    pattern.resize(m);
    // Pieces of m bytes (1 asks for less: raised to m) up to over the text's length.
    for (std::size_t piece : {std::size_t{1}, m + 1, 2 * m, m + rng.below(200), kHyperscanLargestScan}) {
      check_hyperscan(text, pattern, piece);
    }
  }
}

TEST_CASE("one hyperscan matcher searches from several threads at once", "[cli]") {
  if (!hyperscan_built_in_else_skip()) return;
  const Bytes text = random_bytes(1 << 16, 2, 8);
  const Bytes pattern(text.begin() + 7, text.begin() + 12);
  const auto matcher = make_hyperscan_matcher(pattern);
  const std::uint64_t expected = brute_force_count(text, pattern);
  std::vector<std::uint64_t> counts(4 * 50);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = 0; i < 50; ++i) counts[t * 50 + i] = matcher->count(text);
    });
  }
  for (std::thread& thread : threads) thread.join();
  CHECK(counts == std::vector<std::uint64_t>(counts.size(), expected));
}

TEST_CASE("hyperscan's multi-pattern count equals Aho-Corasick's, per pattern, on any threads and pieces", "[cli]") {
  if (!hyperscan_built_in_else_skip()) return;
  const auto check = [](const Bytes& text, const std::vector<Bytes>& patterns, unsigned threads, std::size_t piece) {
    const std::vector<ByteView> views(patterns.begin(), patterns.end());
    const PatternCounts want = AhoCorasick(views).count(text);
    const PatternCounts got = make_hyperscan_multi(views, threads, piece)->count(text);
    INFO("n " << text.size() << ", " << patterns.size() << " patterns, " << threads << " threads, pieces of " << piece);
    CHECK(got.total == want.total);
    CHECK(got.per_pattern == want.per_pattern);
  };
  // Duplicates (counted under each index), prefixes and suffixes of one another, NUL and 0xff, a pattern
  // at offset 0 and at n - m, one longer than the text.
  const Bytes edges = {0x00, 0xFF, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF};
  const std::vector<Bytes> edge_patterns = {{0x00}, {0x00, 0xFF},       {0x00, 0xFF, 0x00}, {0x00, 0x00},
                                            {0xFF}, {0x00, 0x00, 0xFF}, {0x00, 0xFF},       Bytes(10, 0x00)};
  for (unsigned threads : {1u, 2u, 3u}) {
    for (std::size_t piece : {std::size_t{1}, std::size_t{4}, kHyperscanLargestScan}) {
      check(edges, edge_patterns, threads, piece);
      check(Bytes(50, 'a'), {bytes("a"), bytes("aa"), bytes("aaaa"), bytes("aa")}, threads, piece);
    }
  }
  check(bytes("abc"), {}, 2, kHyperscanLargestScan);  // an empty set finds nothing
  check({}, {bytes("abc")}, 2, kHyperscanLargestScan);
  Rng rng(22);
  for (int trial = 0; trial < 100; ++trial) {
    const unsigned alphabet = trial % 3 == 0 ? 256 : 1 + static_cast<unsigned>(rng.below(4));
    const Bytes text = random_bytes(rng.below(5000), alphabet, rng.next());
    std::vector<Bytes> patterns;
    for (std::size_t k = 1 + rng.below(40); k > 0; --k) {
      const std::size_t m = 1 + rng.below(16);
      Bytes p = random_bytes(m, alphabet, rng.next());
      if (m <= text.size() && rng.below(3) != 0)
        p.assign(text.begin() + static_cast<long>(rng.below(text.size() - m + 1)), text.end());
      p.resize(m);
      patterns.push_back(p);
    }
    check(text, patterns, 1 + static_cast<unsigned>(rng.below(4)), 16 + rng.below(600));
  }
  CHECK_THROWS_AS(make_hyperscan_multi({ByteView(bytes("a")), ByteView()}, 2), EmptyPatternError);
}
