// The pieces of the command line, tested without running it: pattern decoding, algorithm choice, the
// overlapping file scan, and which inputs the GPU search streams (lesson 17) in which chunks.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "common/brute_force.hpp"
#include "common/file_io.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "file_scan.hpp"
#include "gpu_backend.hpp"
#include "matcher_choice.hpp"
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
    std::vector<std::uint64_t> found;
    std::uint64_t bytes_seen = 0;
    scan_file(path, m - 1, chunk, [&](ByteView piece, std::uint64_t base) {
      CHECK(piece.size <= m - 1 + chunk);
      for (std::uint64_t o : brute_force_find_all(piece, pattern)) found.push_back(base + o);
      bytes_seen = base + piece.size;
    });
    INFO("n " << n << ", m " << m << ", chunk " << chunk);
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
    std::uint64_t ending_after = 0;
    for (const Hit& hit : per_pattern) ending_after += hit.offset - 5 + patterns[hit.pattern].size() > seen;
    CHECK(together->count(text, seen) == ending_after);
    CHECK_FALSE(apart->count(text, 0).has_value());  // one pass each: only find tells
  }
  // Without -a, the CPU takes one pass for all from kOnePassForAllFrom patterns on (only it counts alone).
  const auto text = random_bytes(100, 4, 1);
  std::vector<std::vector<std::uint8_t>> patterns;
  for (std::uint8_t b = 0; patterns.size() < kOnePassForAllFrom; ++b) patterns.push_back({b});
  const std::vector<ByteView> few(patterns.begin(), patterns.end() - 1);
  const std::vector<ByteView> enough(patterns.begin(), patterns.end());
  CHECK_FALSE(pattern_set(Backend::cpu, {}, few)->count(text, 0).has_value());
  CHECK(pattern_set(Backend::cpu, {}, enough)->count(text, 0).has_value());
  CHECK_FALSE(pattern_set(Backend::cpu, parse_algorithm_spec("epsm"), enough)->count(text, 0).has_value());
}

TEST_CASE("scanning a missing file or a directory says which and why", "[cli]") {
  const auto ignore = [](ByteView, std::uint64_t) {};
  CHECK_THROWS_WITH(scan_file(temp_path("missing"), 0, 16, ignore), Catch::Contains("No such file"));
  CHECK_THROWS_WITH(scan_file("/", 0, 16, ignore), Catch::Contains("Is a directory"));
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
