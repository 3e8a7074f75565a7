// The pieces of the command line, tested without running it: pattern decoding, algorithm choice, the
// overlapping file scan, and which inputs the GPU search streams (lesson 17) in which chunks.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "common/brute_force.hpp"
#include "common/corpus.hpp"
#include "common/file_io.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "file_scan.hpp"
#include "file_walk.hpp"
#include "gpu_backend.hpp"
#include "matcher_choice.hpp"
#include "multi_counters.hpp"
#include "pattern_set.hpp"
#include "pattern_source.hpp"
#include "streamed_search.hpp"
#include "temp_files.hpp"

using namespace cudamatch;
using namespace cudamatch::cli;
using cudamatch::testing::temp_path;

TEST_CASE("hex patterns decode, with spaces and 0x, and bad ones are refused", "[cli]") {
  CHECK(decode_hex("00ff0A") == std::vector<std::uint8_t>{0x00, 0xFF, 0x0A});
  CHECK(decode_hex("0x48 65 6c") == std::vector<std::uint8_t>{'H', 'e', 'l'});
  CHECK(decode_hex("").empty());
  CHECK_THROWS_WITH(decode_hex("abc"), Catch::Contains("odd number"));
  CHECK_THROWS_WITH(decode_hex("zz"), Catch::Contains("not a hex digit"));
}

TEST_CASE("patterns come from the command line, a file or hex, and are never empty", "[cli]") {
  CHECK(load_pattern(PatternKind::literal, "ab") == std::vector<std::uint8_t>{'a', 'b'});
  CHECK(load_pattern(PatternKind::hex, "0001") == std::vector<std::uint8_t>{0, 1});
  const std::string path = temp_path("pattern");
  write_file(path, {0x00, 0x80, 0xFF});
  CHECK(load_pattern(PatternKind::file, path) == std::vector<std::uint8_t>{0x00, 0x80, 0xFF});
  write_file(path, {});
  CHECK_THROWS_AS(load_pattern(PatternKind::file, path), UsageError);
  std::remove(path.c_str());
  CHECK_THROWS_AS(load_pattern(PatternKind::literal, ""), UsageError);
  CHECK_THROWS_AS(load_pattern(PatternKind::hex, ""), UsageError);
  CHECK_THROWS_AS(load_pattern(PatternKind::file, path), FileError);
}

TEST_CASE("pattern files hold one pattern per line, and no line may be empty", "[cli]") {
  const auto bytes = [](const std::string& s) { return std::vector<std::uint8_t>(s.begin(), s.end()); };
  CHECK(pattern_lines(bytes("ab"), "x") == std::vector<std::vector<std::uint8_t>>{bytes("ab")});
  CHECK(pattern_lines(bytes("ab\n"), "x") == std::vector<std::vector<std::uint8_t>>{bytes("ab")});
  CHECK(pattern_lines(bytes(std::string("a\0\r\n\xff", 5)), "x") ==
        std::vector<std::vector<std::uint8_t>>{bytes(std::string("a\0\r", 3)), bytes("\xff")});
  CHECK_THROWS_WITH(pattern_lines(bytes(""), "the pattern file 'p'"), Catch::Contains("'p' is empty"));
  CHECK_THROWS_WITH(pattern_lines(bytes("\n"), "F"), Catch::StartsWith("F: line 1 is empty"));
  CHECK_THROWS_WITH(pattern_lines(bytes("a\nb\n\nc"), "F"), Catch::StartsWith("F: line 3 is empty"));
  CHECK_THROWS_WITH(pattern_lines(bytes("a\n\n"), "F"), Catch::StartsWith("F: line 2 is empty"));
}

TEST_CASE("-i folds ASCII letters and nothing else", "[cli]") {
  std::vector<std::uint8_t> all(256);
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = static_cast<std::uint8_t>(i);
  std::vector<std::uint8_t> lowered(all.size());
  ascii_lower(all.data(), all.size(), lowered.data());
  ascii_lower(all.data(), all.size(), all.data());  // in place
  for (std::size_t i = 0; i < all.size(); ++i) {
    INFO("byte " << i);
    CHECK(all[i] == (i >= 'A' && i <= 'Z' ? i + 32 : i));
    CHECK(lowered[i] == all[i]);
  }
}

TEST_CASE("algorithm specs name an algorithm and optionally a version", "[cli]") {
  CHECK_FALSE(parse_algorithm_spec("").algorithm.has_value());
  CHECK(*parse_algorithm_spec("ssef").algorithm == Algorithm::ssef);
  const AlgorithmSpec kmp = parse_algorithm_spec("kmp:v2");
  CHECK(*kmp.algorithm == Algorithm::kmp);
  CHECK(*kmp.version == 2);
  CHECK_THROWS_WITH(parse_algorithm_spec("grep"), Catch::Contains("unknown algorithm") && Catch::Contains("sunday"));
  CHECK_THROWS_WITH(parse_algorithm_spec("bm:2"), Catch::Contains("bad version"));
  CHECK_THROWS_WITH(parse_algorithm_spec("bm:v"), Catch::Contains("bad version"));
  CHECK(parse_backend("cpu") == Backend::cpu);
  CHECK_THROWS_AS(parse_backend("opencl"), UsageError);
}

TEST_CASE("the CPU backend has v0 of every algorithm, the CUDA backend the versions of the lessons", "[cli]") {
  const std::vector<std::uint8_t> pattern = {'a', 'b'};
  for (Algorithm a : all_algorithms()) {
    CHECK(make_matcher(Backend::cpu, a, std::nullopt, pattern) != nullptr);
    CHECK(make_matcher(Backend::cpu, a, 0, pattern) != nullptr);
    CHECK_THROWS_WITH(make_matcher(Backend::cpu, a, 1, pattern), Catch::Contains("one version"));
    const GpuAlgorithm* gpu = gpu_algorithm(a);
    if (gpu == nullptr) {
      CHECK_THROWS_WITH(require_available(Backend::cuda, a, std::nullopt), Catch::Contains("not built yet"));
      continue;
    }
    CHECK(gpu->algorithm == a);
    CHECK(gpu->versions.size() >= 2);
    CHECK_NOTHROW(require_available(Backend::cuda, a, static_cast<int>(gpu->versions.size()) - 1));
    CHECK_THROWS_WITH(require_available(Backend::cuda, a, static_cast<int>(gpu->versions.size())),
                      Catch::Contains("versions v0 to v"));
  }
  CHECK(gpu_algorithm(Algorithm::bf) != nullptr);
}

TEST_CASE("a chunked scan finds every occurrence exactly once, across every chunk edge", "[cli]") {
  const std::string path = temp_path("text");
  Rng rng(13);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t n = rng.below(3000);
    const auto text = random_bytes(n, trial % 2 ? 2 : 256, rng.next());
    write_file(path, text);
    const std::size_t m = 1 + rng.below(40);
    std::vector<std::uint8_t> pattern = random_bytes(m, 2, rng.next());
    if (m <= n) pattern.assign(text.begin() + static_cast<long>(rng.below(n - m + 1)), text.end());
    pattern.resize(m);
    const std::size_t chunk = 1 + rng.below(100);
    // Half the trials start small and grow fourfold up to the chunk (-l, -q, -m).
    const std::size_t first = trial % 4 < 2 ? 0 : 1 + rng.below(chunk);
    std::vector<std::uint64_t> found;
    std::uint64_t bytes_seen = 0;
    std::size_t new_bytes = first == 0 ? chunk : first;  // at most, in the next piece
    scan_file(
        path, m - 1, chunk,
        [&](ByteView piece, std::uint64_t base) {
          CHECK(piece.size <= m - 1 + new_bytes);
          new_bytes = std::min(chunk, 4 * new_bytes);
          for (std::uint64_t o : brute_force_find_all(piece, pattern)) found.push_back(base + o);
          bytes_seen = base + piece.size;
        },
        first);
    INFO("n " << n << ", m " << m << ", chunk " << chunk << ", first " << first);
    CHECK(bytes_seen == n);
    CHECK(found == brute_force_find_all(text, pattern));  // sorted and without duplicates
  }
  std::remove(path.c_str());
}

namespace {
// The pattern set of a search for `patterns` on `backend` with -a's `spec`, in an empty text.
std::unique_ptr<PatternSet> pattern_set(Backend backend, const AlgorithmSpec& spec,
                                        const std::vector<ByteView>& patterns) {
  std::vector<std::size_t> lengths;
  for (ByteView p : patterns) lengths.push_back(p.size);
  return make_pattern_set(backend, plan_search(backend, spec, lengths, TextTraits{}), patterns);
}
}  // namespace

TEST_CASE("several patterns: one Aho-Corasick pass lists and counts what one pass each does", "[cli]") {
  Rng rng(22);
  for (int trial = 0; trial < 300; ++trial) {
    const auto text = random_bytes(rng.below(2000), 2 + trial % 3, rng.next());
    std::vector<std::vector<std::uint8_t>> patterns;  // distinct, as the command line makes them
    for (std::size_t k = 2 + rng.below(9); k > 0; --k) {
      const std::size_t m = 1 + rng.below(12);
      auto p = random_bytes(m, 2 + trial % 3, rng.next());
      if (m <= text.size()) p.assign(text.begin() + static_cast<long>(rng.below(text.size() - m + 1)), text.end());
      p.resize(m);
      if (std::find(patterns.begin(), patterns.end(), p) == patterns.end()) patterns.push_back(p);
    }
    if (patterns.size() < 2) continue;  // one pattern is searched by its matcher
    const std::vector<ByteView> views(patterns.begin(), patterns.end());
    const auto together = one_pass_for_all(views);
    const auto apart = pattern_set(Backend::cpu, parse_algorithm_spec("kmp"), views);
    std::vector<Hit> one_pass, per_pattern;
    together->find(text, 5, one_pass);
    apart->find(text, 5, per_pattern);  // by offset, the longer pattern first
    INFO("trial " << trial << ": " << patterns.size() << " patterns, n " << text.size());
    REQUIRE(one_pass.size() == per_pattern.size());
    for (std::size_t i = 0; i < one_pass.size(); ++i) {
      INFO("match " << i);
      CHECK(one_pass[i].offset == per_pattern[i].offset);
      CHECK(one_pass[i].pattern == per_pattern[i].pattern);
    }
    // A count leaves out the matches that end in the bytes the piece shares with the previous one.
    const std::size_t seen = rng.below(text.size() + 1);
    PatternCounts ending_after{0, std::vector<std::uint64_t>(patterns.size())};
    for (const Hit& hit : per_pattern) {
      const bool after = hit.offset - 5 + patterns[hit.pattern].size() > seen;
      ending_after.total += after;
      ending_after.per_pattern[hit.pattern] += after;
    }
    const std::optional<PatternCounts> counted = together->count(text, seen);
    REQUIRE(counted.has_value());
    CHECK(counted->total == ending_after.total);
    CHECK(counted->per_pattern == ending_after.per_pattern);  // in the order given
    CHECK_FALSE(apart->count(text, 0).has_value());           // one pass each: only find tells
  }
  // Without -a, the CPU takes one pass for all from kOnePassForAllFrom patterns on (only it counts alone).
  const auto text = random_bytes(100, 4, 1);
  std::vector<std::vector<std::uint8_t>> patterns;
  for (std::uint8_t b = 0; patterns.size() < kOnePassForAllFrom; ++b) patterns.push_back({b});
  const std::vector<ByteView> few(patterns.begin(), patterns.end() - 1);
  const std::vector<ByteView> enough(patterns.begin(), patterns.end());
  CHECK_FALSE(pattern_set(Backend::cpu, {}, few)->count(text, 0).has_value());
  CHECK(pattern_set(Backend::cpu, {}, enough)->count(text, 0).has_value());
  const std::optional<PatternCounts> one = pattern_set(Backend::cpu, {}, {few[3]})->count(text, 0);
  REQUIRE(one.has_value());  // one pattern: its matcher counts
  CHECK(one->per_pattern == std::vector<std::uint64_t>{one->total});
  CHECK_FALSE(pattern_set(Backend::cpu, parse_algorithm_spec("epsm"), enough)->count(text, 0).has_value());
}

TEST_CASE("a search's matches are checked before they are printed: pattern, place in the text, order", "[cli]") {
  // What find returns passes: Aho-Corasick's matches of prefix patterns in an all-equal text, at both ends.
  const std::vector<std::uint8_t> text(9, 'a');
  const std::vector<std::vector<std::uint8_t>> patterns = {{'a'}, {'a', 'a', 'a'}, {'a', 'a'}};
  const std::vector<ByteView> views(patterns.begin(), patterns.end());
  const std::vector<std::size_t> lengths = {1, 3, 2};
  std::vector<Hit> found;
  one_pass_for_all(views)->find(text, 100, found);
  REQUIRE(found.size() == 9 + 7 + 8);
  CHECK_NOTHROW(check_matches(found, 100, text.size(), lengths));
  CHECK_NOTHROW(check_matches({}, 0, 0, lengths));
  // A record a GPU write pass missed (all ones), a pattern index beyond the patterns.
  CHECK_THROWS_WITH(check_matches({{~std::uint64_t{0}, 0}}, 0, 9, lengths), Catch::Contains("outside the text"));
  CHECK_THROWS_WITH(check_matches({{0, 3}}, 0, 9, lengths), Catch::Contains("of no pattern (there are 3)"));
  CHECK_THROWS_WITH(check_matches({{0, 0xffffffffu}}, 0, 9, lengths), Catch::Contains("of no pattern"));
  // Before the text, past its end (a 3-byte pattern at 7 of 9 bytes), in a text shorter than the pattern.
  CHECK_THROWS_WITH(check_matches({{99, 0}}, 100, 9, lengths), Catch::Contains("outside the text"));
  CHECK_NOTHROW(check_matches({{106, 1}}, 100, 9, lengths));
  CHECK_THROWS_WITH(check_matches({{107, 1}}, 100, 9, lengths), Catch::Contains("outside the text"));
  CHECK_THROWS_WITH(check_matches({{100, 1}}, 100, 2, lengths), Catch::Contains("outside the text"));
  // Order: offsets ascending; at one offset the longer pattern first, each once.
  CHECK_NOTHROW(check_matches({{1, 1}, {1, 2}, {1, 0}, {2, 0}}, 0, 9, lengths));
  CHECK_THROWS_WITH(check_matches({{2, 0}, {1, 0}}, 0, 9, lengths), Catch::Contains("out of order"));
  CHECK_THROWS_WITH(check_matches({{1, 0}, {1, 2}}, 0, 9, lengths), Catch::Contains("out of order"));
  CHECK_THROWS_WITH(check_matches({{1, 2}, {1, 2}}, 0, 9, lengths), Catch::Contains("out of order"));
}

namespace {

using Patterns = std::vector<std::vector<std::uint8_t>>;

// Up to `most` distinct patterns of 1-12 bytes, most drawn from `text`, some random over `alphabet`.
Patterns draw_distinct(const std::vector<std::uint8_t>& text, std::size_t most, unsigned alphabet, Rng& rng) {
  Patterns patterns;
  for (std::size_t k = most; k > 0; --k) {
    const std::size_t m = 1 + rng.below(12);
    auto p = random_bytes(m, alphabet, rng.next());
    if (m <= text.size() && rng.below(4) != 0) {
      p.assign(text.begin() + static_cast<long>(rng.below(text.size() - m + 1)), text.end());
    }
    p.resize(m);
    if (std::find(patterns.begin(), patterns.end(), p) == patterns.end()) patterns.push_back(p);
  }
  return patterns;
}

// A multi-pattern version for these tests alone, on the single-pattern engine: one pass per pattern with
// brute force's best GPU version (gpu_positions), the matches merged. It tests what the command line
// does with any GpuMultiVersion; lesson 18's tests test its versions.
class PerPatternSet final : public GpuPatternSet {
 public:
  explicit PerPatternSet(const std::vector<ByteView>& patterns) {
    for (const ByteView& p : patterns) patterns_.push_back(std::make_unique<DevicePattern>(p));
  }

  PatternCounts count(const DeviceText& text, std::size_t seen, cudaStream_t stream) override {
    PatternCounts counts{0, std::vector<std::uint64_t>(patterns_.size())};
    for (std::size_t k = 0; k < patterns_.size(); ++k) {
      for (std::uint64_t offset : positions(k, text, stream)) {
        const bool after = offset + patterns_[k]->size() > seen;
        counts.total += after;
        counts.per_pattern[k] += after;
      }
    }
    return counts;
  }

  void find_all(const DeviceText& text, std::uint64_t base, std::vector<PatternMatch>& out,
                cudaStream_t stream) override {
    const std::size_t first = out.size();
    for (std::size_t k = 0; k < patterns_.size(); ++k) {
      for (std::uint64_t offset : positions(k, text, stream))
        out.push_back({base + offset, static_cast<std::uint32_t>(k)});
    }
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
  }

 private:
  std::vector<std::uint64_t> positions(std::size_t k, const DeviceText& text, cudaStream_t stream) {
    const std::uint64_t n = gpu_positions(gpu_algorithm(Algorithm::bf)->best(), text, *patterns_[k], buffer_, stream);
    std::vector<std::uint64_t> found(n);
    if (n > 0) buffer_.download(found.data(), n);
    return found;
  }

  std::vector<std::unique_ptr<DevicePattern>> patterns_;
  DeviceBuffer<std::uint64_t> buffer_;
};

const GpuMultiVersion kPerPatternVersion{
    "test", "one pass per pattern (test_cli_pieces.cpp only)",
    [](const std::vector<ByteView>& patterns, ByteView, cudaStream_t) -> std::unique_ptr<GpuPatternSet> {
      return std::make_unique<PerPatternSet>(patterns);
    }};

}  // namespace

TEST_CASE("several patterns on the GPU: one pass for all lists and counts what the CPU's Aho-Corasick does",
          "[cli][gpu]") {
  // The test's own version, and where this build has one lesson 18's best (what `search` runs).
  std::vector<const GpuMultiVersion*> versions = {&kPerPatternVersion};
  if (const GpuMultiAlgorithm* table = gpu_multi_table()) versions.push_back(&table->best());
  Rng rng(18);
  for (const GpuMultiVersion* version : versions) {
    for (int trial = 0; trial < 60; ++trial) {
      const unsigned alphabet = trial % 4 == 0 ? 256 : 1 + trial % 3;
      const auto source = random_bytes(1 + rng.below(3000), alphabet, rng.next());
      Patterns patterns = draw_distinct(source, 2 + rng.below(30), alphabet, rng);
      if (trial % 5 == 0) patterns.push_back(std::vector<std::uint8_t>(20, source[0]));  // longer than short texts
      const std::vector<ByteView> views(patterns.begin(), patterns.end());
      const auto gpu = gpu_one_pass_for_all(*version, views);
      const auto cpu = one_pass_for_all(views);
      // One pattern set, several texts: larger and smaller pieces reuse or grow its device text.
      for (std::size_t n : {source.size(), source.size() / 3, std::size_t{0}, source.size() / 2 + 7}) {
        const ByteView text(source.data(), std::min(n, source.size()));
        INFO(version->name << " trial " << trial << ": " << patterns.size() << " patterns, n " << text.size);
        std::vector<Hit> want = {{7, 7}}, got = {{7, 7}};  // appended after what is there
        cpu->find(text, 1000, want);
        gpu->find(text, 1000, got);
        REQUIRE(got.size() == want.size());
        for (std::size_t i = 0; i < got.size(); ++i) {
          INFO("match " << i);
          CHECK(got[i].offset == want[i].offset);
          CHECK(got[i].pattern == want[i].pattern);
        }
        const std::size_t seen = rng.below(text.size + 1);
        const std::optional<PatternCounts> counted = gpu->count(text, seen), expected = cpu->count(text, seen);
        REQUIRE(counted.has_value());
        CHECK(counted->total == expected->total);
        CHECK(counted->per_pattern == expected->per_pattern);
      }
    }
  }
  // All-equal text, prefix patterns, NUL and 0xff, a pattern at offset 0 and at n - m.
  const std::vector<std::uint8_t> text = {0x00, 0xFF, 0x00, 0xFF, 0x00, 0x00, 0x00, 0x00, 0xFF};
  const Patterns edges = {{0x00}, {0x00, 0xFF}, {0x00, 0xFF, 0x00}, {0x00, 0x00}, {0xFF}, {0x00, 0x00, 0xFF}};
  const std::vector<ByteView> views(edges.begin(), edges.end());
  for (const GpuMultiVersion* version : versions) {
    std::vector<Hit> want, got;
    one_pass_for_all(views)->find(text, 0, want);
    gpu_one_pass_for_all(*version, views)->find(text, 0, got);
    INFO(version->name);
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i)
      CHECK((got[i].offset == want[i].offset && got[i].pattern == want[i].pattern));
  }
}

TEST_CASE("a count on several threads, in overlapping pieces, counts every occurrence once", "[cli]") {
  Rng rng(23);
  for (int trial = 0; trial < 200; ++trial) {
    const unsigned alphabet = trial % 3 == 0 ? 256 : 1 + trial % 4;
    const auto text = random_bytes(rng.below(3000), alphabet, rng.next());
    Patterns patterns = draw_distinct(text, 1 + rng.below(20), alphabet, rng);
    if (trial % 4 == 0) patterns.push_back(patterns.front());  // a duplicate: counted under both indices
    const std::vector<ByteView> views(patterns.begin(), patterns.end());
    const PatternCounts want = AhoCorasick(views).count(text);
    const unsigned threads = 1 + static_cast<unsigned>(rng.below(5));
    INFO("trial " << trial << ": " << patterns.size() << " patterns, n " << text.size() << ", " << threads
                  << " threads");
    const PatternCounts all_cores = make_parallel_aho_corasick(views, threads)->count(text);
    CHECK(all_cores.total == want.total);
    CHECK(all_cores.per_pattern == want.per_pattern);
    // Small pieces: many more than the threads, each no larger than asked (the longest pattern at least).
    std::size_t longest = 0;
    for (const ByteView& p : views) longest = std::max(longest, p.size);
    const std::size_t largest = rng.below(3 * longest + 2);
    const AhoCorasick automaton(views);
    const PatternCounts pieces =
        count_in_pieces(text, views.size(), longest, threads, largest,
                        [&](ByteView piece, std::size_t seen, unsigned thread, PatternCounts& into) {
                          CHECK(thread < threads);
                          CHECK(piece.size <= std::max(largest, longest));
                          CHECK(seen < std::max<std::size_t>(longest, 1));
                          const PatternCounts found = automaton.count(piece, seen);
                          into.total += found.total;
                          for (std::size_t k = 0; k < views.size(); ++k) into.per_pattern[k] += found.per_pattern[k];
                        });
    CHECK(pieces.total == want.total);
    CHECK(pieces.per_pattern == want.per_pattern);
  }
  const std::vector<std::uint8_t> text = {'x'};
  CHECK_THROWS_WITH(count_in_pieces(text, 0, 1, 3, 1,
                                    [](ByteView, std::size_t, unsigned, PatternCounts&) {
                                      throw std::runtime_error("from a thread");
                                    }),
                    "from a thread");
}

TEST_CASE("a repeated text is counted from its distinct pieces as a count of the whole text", "[cli]") {
  Rng rng(24);
  for (int trial = 0; trial < 300; ++trial) {
    const unsigned alphabet = 1 + static_cast<unsigned>(rng.below(3));
    const auto corpus = random_bytes(1 + rng.below(100), alphabet, rng.next());
    auto text = repeat_to(corpus, rng.below(1000));
    const bool broken = trial % 5 == 0 && text.size() > corpus.size();  // not a repetition: counted whole
    if (broken) text[corpus.size() + rng.below(text.size() - corpus.size())] ^= 0x80;
    Patterns patterns = draw_distinct(text.empty() ? corpus : text, 1 + rng.below(12), alphabet, rng);
    patterns.push_back(patterns.front());
    const std::vector<ByteView> views(patterns.begin(), patterns.end());
    const AhoCorasick automaton(views);
    const PatternCounts want = automaton.count(text);
    const PatternCounts got = count_repeated(automaton, text, corpus.size(), 2);
    INFO("trial " << trial << ": corpus " << corpus.size() << ", text " << text.size() << ", longest "
                  << automaton.longest_pattern() << (broken ? ", not repeated" : ""));
    CHECK(got.total == want.total);
    CHECK(got.per_pattern == want.per_pattern);
  }
}

TEST_CASE("scanning a missing file or a directory says which and why", "[cli]") {
  const auto ignore = [](ByteView, std::uint64_t) {};
  CHECK_THROWS_WITH(scan_file(temp_path("missing"), 0, 16, ignore), Catch::Contains("No such file"));
  CHECK_THROWS_WITH(scan_file("/", 0, 16, ignore), Catch::Contains("Is a directory"));
}

namespace {
// The files walk_operands visits, as "PATH=SHOWN" ("PATH" alone where they are the same), and its errors.
struct Walk {
  std::vector<std::string> files, errors;
};
Walk walk_of(const std::vector<std::string>& operands, bool recursive, std::size_t stop_after = 1000,
             const FileFilters& filters = {}) {
  Walk walk;
  walk_operands(
      operands, recursive, filters,
      [&](const WalkedFile& f) {
        walk.files.push_back(f.path == f.shown ? f.path : f.path + "=" + f.shown);
        return walk.files.size() < stop_after;
      },
      [&](const std::string& e) { walk.errors.push_back(e); });
  return walk;
}
}  // namespace

TEST_CASE("with -r each folder operand is walked in name order, links skipped, other operands kept", "[cli]") {
  namespace fs = std::filesystem;
  const fs::path root = cudamatch::testing::make_temp_dir();
  const auto write = [&](const std::string& name) {
    fs::create_directories((root / name).parent_path());
    std::FILE* f = std::fopen((root / name).string().c_str(), "wb");
    REQUIRE(f != nullptr);
    std::fclose(f);
  };
  for (const char* name : {"b/deep/x", "b/a", "a", "c.txt", "b0", "b/-"}) write(name);
  fs::create_directory(root / "empty");
  fs::create_symlink(root / "a", root / "b" / "link");    // a link inside: not followed
  fs::create_directory_symlink(root / "b", root / "lb");  // nor a link to a folder
  const std::string r = root.string();
  const Walk walked = walk_of({"-", r, r + "//b//", r + "/missing"}, true);
  CHECK(walked.errors.empty());
  CHECK(walked.files == std::vector<std::string>{"-=(standard input)", r + "/a", r + "/b/-", r + "/b/a",
                                                 r + "/b/deep/x", r + "/b0", r + "/c.txt", r + "//b/-", r + "//b/a",
                                                 r + "//b/deep/x", r + "/missing"});
  CHECK(walk_of({r}, false).files == std::vector<std::string>{r});  // without -r: as given
  CHECK(walk_of({r}, true, 2).files.size() == 2);                   // the visitor stops it
  // --include, --exclude, --exclude-dir by base name, the last matching one deciding
  FileFilters filters;
  filters.add(FileFilters::Kind::exclude, "*");
  filters.add(FileFilters::Kind::include, "a");  // globs no part of the temporary folder's path matches
  filters.add(FileFilters::Kind::include, "b?");
  filters.add(FileFilters::Kind::exclude_dir, "deep/");
  CHECK(walk_of({r, r + "/c.txt"}, true, 1000, filters).files ==
        std::vector<std::string>{r + "/a", r + "/b/a", r + "/b0"});
  FileFilters only_txt;
  only_txt.add(FileFilters::Kind::include, "*.txt");  // the first is an --include: others are left out
  CHECK(walk_of({r, r + "/a"}, true, 1000, only_txt).files == std::vector<std::string>{r + "/c.txt"});
  CHECK(walk_names_several({r}));
  CHECK_FALSE(walk_names_several({r + "/a"}));
  CHECK(walk_names_several({}));
  // No operand: the current folder, its files shown without "./" and opened with it ("-" is a file).
  const fs::path before = fs::current_path();
  fs::current_path(root / "b");
  const Walk here = walk_of({}, true);
  fs::current_path(before);
  CHECK(here.files == std::vector<std::string>{"./-=-", "./a=a", "./deep/x=deep/x"});
  fs::remove_all(root);
}

// The manifest's "search_with" (lessons/17-out-of-core/lesson.json) must name a version of the table: a
// wrong name would surface only at the first streamed search, on a GPU.
TEST_CASE("cudamatch streams with the version that lesson 17's manifest names", "[cli]") {
  const std::string with = CUDAMATCH_STREAM_WITH;
  REQUIRE_NOTHROW(search_stream_version());
  if (!with.empty()) CHECK(search_stream_version().name == with);
}

TEST_CASE("the GPU search streams standard input and regular files over 64 MiB", "[cli]") {
  CHECK(wants_stream("-", kStreamAbove));
  const std::string path = temp_path("stream");
  write_file(path, {'a', 'b', 'c'});
  CHECK_FALSE(wants_stream(path, kStreamAbove));
  CHECK(wants_stream(path, 2));
  CHECK_FALSE(wants_stream(path, 3));
  // A sparse file just over the threshold takes no disk space.
  const int fd = ::open(path.c_str(), O_WRONLY | O_TRUNC);
  REQUIRE(fd >= 0);
  REQUIRE(::ftruncate(fd, static_cast<off_t>(kStreamAbove + 1)) == 0);
  ::close(fd);
  CHECK(wants_stream(path, kStreamAbove));
  std::remove(path.c_str());
  CHECK_FALSE(wants_stream(path, 0));  // missing: scan_file says why
  CHECK_FALSE(wants_stream("/", 0));   // a directory
}

TEST_CASE("streamed chunks overlap by m - 1 and never hold less than their overlap", "[cli]") {
  // The plan `search` streams with: chunks of C positions, windows of C + m - 1 bytes.
  const ChunkPlan plan = plan_chunks(17, 4096, 10, 0);
  CHECK(plan.window_bytes() == 4096 + 16);
  CHECK(plan.offset(1) + plan.overlap() == plan.window_bytes());  // window 1 starts m - 1 bytes before window 0 ends
  CHECK(plan.chunks(4096 + 16) == 1);
  CHECK(plan.chunks(4096 + 17) == 2);
  // A pattern longer than a chunk grows the chunk to m - 1 (the overlap rule) ...
  CHECK(plan_chunks(100000, 4096, 10, 0).chunk_bytes == 99999);
  // ... within the device budget (half the free memory), or the search says the pattern is too long.
  CHECK_THROWS_WITH(plan_chunks(100000, 4096, 10, 1 << 20), Catch::Contains("device budget"));
}
