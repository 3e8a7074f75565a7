// Lesson 12, v3: its threads' scans run on the CPU (scan_threads_on_host runs the kernel's own
// __host__ __device__ scan for every thread) against the CPU KMP, and the bytes each thread reads
// against the stop rule's definition; then what only the GPU runs: the loop over the tiles in count
// mode, the fallback, a batch. Every test checks the student's scan_stride: [todo].
#include <catch2/catch.hpp>

#include <algorithm>
#include <initializer_list>
#include <numeric>
#include <string>
#include <vector>

#include "byte_strings.hpp"
#include "common/generators.hpp"
#include "common/matchers/cpu_matcher.hpp"
#include "gpu_matcher_checks.hpp"
#include "kmp_gpu.hpp"
#include "kmp_v3.hpp"
#include "version_checks.hpp"

using namespace cudamatch;
using namespace cudamatch::testing;
using lesson12::kStride;

// v3's tiles: kV3Threads threads' strides, staged with kStagedPastTile bytes more; a thread that reads
// past them reads global memory.
constexpr std::size_t kTile = lesson12::kV3Threads * kStride;

namespace {

using Bytes = std::vector<std::uint8_t>;

Bytes prefix(const Bytes& text, std::size_t at, std::size_t m) {
  return {text.begin() + static_cast<long>(at), text.begin() + static_cast<long>(at + m)};
}

std::vector<std::uint64_t> cpu_kmp(const Bytes& text, const Bytes& pattern) {
  std::vector<std::uint64_t> found;
  make_cpu_matcher(Algorithm::kmp, pattern)->find_all(text, 0, found);
  return found;
}

// The bytes thread `first / kStride` must read, by the stop rule's definition (the README's v3): none
// when no occurrence can start in its stride; else its stride (up to the text's end), and then byte i
// as long as some s in the stride begins a partial match text[s, i) = p[0, i - s) shorter than m,
// i.e. as long as an occurrence starting in the stride is still possible.
std::size_t bytes_by_definition(const Bytes& text, const Bytes& p, std::size_t first) {
  const std::size_t n = text.size(), m = p.size(), end = first + kStride;
  if (first + m > n) return 0;
  const auto partial_match_from_stride = [&](std::size_t i) {
    for (std::size_t s = first; s < end; ++s) {
      if (i - s < m && std::equal(text.begin() + static_cast<long>(s), text.begin() + static_cast<long>(i), p.begin()))
        return true;
    }
    return false;
  };
  std::size_t i = std::min(end, n);
  while (i < n && partial_match_from_stride(i)) ++i;
  return i - first;
}

// The threads' occurrences equal the CPU KMP's, and each thread reads the bytes the stop rule says
// (`exact`: by its definition, quadratic; else only the m-free bounds).
void check_threads(const Bytes& text, const Bytes& pattern, bool exact) {
  INFO("n " << text.size() << ", m " << pattern.size() << ", pattern starts "
            << std::string(pattern.begin(),
                           pattern.begin() + static_cast<long>(std::min<std::size_t>(pattern.size(), 16))));
  const lesson12::ThreadScans scans = lesson12::scan_threads_on_host(text, pattern);
  REQUIRE(scans.positions == cpu_kmp(text, pattern));
  const std::size_t threads = pattern.size() > text.size() ? 0 : (text.size() - pattern.size()) / kStride + 1;
  REQUIRE(scans.bytes_scanned.size() == threads);
  for (std::size_t t = 0; t < threads; ++t) {
    INFO("thread " << t);
    const std::size_t first = t * kStride;
    CHECK(scans.bytes_scanned[t] <= std::min(kStride + pattern.size() - 1, text.size() - first));
    if (exact) CHECK(scans.bytes_scanned[t] == bytes_by_definition(text, pattern, first));
  }
}

// Patterns whose borders are long: the automaton's state stays high across the stride's end.
std::vector<Bytes> bordered_patterns(std::size_t m) {
  Bytes almost = repeat_to("a", m);
  almost.back() = 'b';
  return {repeat_to("a", m), repeat_to("ab", m), repeat_to("aab", m), repeat_to("abaababa", m), almost};
}

double mean_bytes(const lesson12::ThreadScans& scans) {
  const auto& bytes = scans.bytes_scanned;
  return static_cast<double>(std::accumulate(bytes.begin(), bytes.end(), std::size_t{0})) /
         static_cast<double>(bytes.size());
}

const GpuVersion& v3() { return kmp_gpu().version(3); }

}  // namespace

TEST_CASE("v3's threads, run on the CPU, find every occurrence once and stop where the rule says", "[todo]") {
  std::uint64_t seed = 1200;
  // Random texts: sizes around the stride (one thread, a partial one, a whole stride ending at n) and
  // dozens of threads.
  using Sizes = std::initializer_list<std::size_t>;
  for (unsigned sigma : {2u, 4u, 26u, 256u}) {
    for (std::size_t n : Sizes{1, kStride - 1, kStride, kStride + 1, 2 * kStride, 2 * kStride + 1, 3001}) {
      const Bytes text = random_bytes(n, sigma, ++seed);
      for (std::size_t m : Sizes{1, 2, 3, 5, 8, 15, 16, 17, kStride - 1, kStride, kStride + 1, 100, 300}) {
        if (m > n) continue;
        check_threads(text, prefix(text, (seed * 7) % (n - m + 1), m), true);
        check_threads(text, random_bytes(m, sigma, ++seed), true);
      }
    }
  }
  // Periodic texts searched for bordered patterns: occurrences everywhere, partial matches across every
  // stride's end.
  for (const char* period : {"a", "ab", "aab", "abaababa"}) {
    const Bytes text = repeat_to(period, 2001);
    for (std::size_t m : Sizes{1, 2, 3, 7, 8, 9, 15, 16, 17, kStride, kStride + 1, 80, 100, 300}) {
      for (const Bytes& pattern : bordered_patterns(m)) check_threads(text, pattern, true);
    }
  }
  // The text's last stride is partial (n is no multiple of 4 or kStride) and the tile is staged with zeros
  // past n: a scan that fed it a whole word at a time would read them. Patterns made of the text's
  // last 5 letters and then NULs occur nowhere.
  for (std::size_t n : {3001, 3002, 3003, 3005}) {
    const Bytes text = random_bytes(n, 26, ++seed);
    for (std::size_t m : {8, 9, 12}) {
      Bytes pattern(text.end() - 5, text.end());
      pattern.resize(m, 0);
      check_threads(text, pattern, true);
    }
  }
  // Long partial matches that break: runs of 150 'a' and a 'b', searched for 200 'a' (never there: every
  // run breaks off at its 'b', 32 or more bytes into the match) and for 149 'a', 'b', 50 'a' (there).
  Bytes runs;
  while (runs.size() < 3000) {
    runs.insert(runs.end(), 150, 'a');
    runs.push_back('b');
  }
  Bytes broken(149, 'a');
  broken.push_back('b');
  broken.insert(broken.end(), 50, 'a');
  for (const Bytes& pattern : {Bytes(200, 'a'), broken}) check_threads(runs, pattern, true);
  // Across tiles: the last threads of a tile read past its 64 staged bytes, from the whole text.
  const Bytes tiles = repeat_to("aab", 2 * kTile + 137);
  for (std::size_t m : {37, 80, 100}) {
    for (const Bytes& pattern : bordered_patterns(m)) check_threads(tiles, pattern, true);
  }
}

TEST_CASE("v3's threads, run on the CPU, handle patterns up to 4096 bytes", "[todo]") {
  const Bytes dna = random_bytes(60013, 4, 1201);
  for (std::size_t m : {1000, 4095, 4096}) {
    check_threads(dna, prefix(dna, 12345, m), false);
    check_threads(dna, random_bytes(m, 4, m), false);
  }
  // All-equal and periodic texts: every thread reads on to the last occurrence starting in its stride.
  // Three tiles and a part: the threads of a tile's end read thousands of bytes past its staged ones.
  const Bytes same = repeat_to("a", 3 * kTile + 1001);
  for (std::size_t m : {1000, 4096}) {
    for (const Bytes& pattern : bordered_patterns(m)) check_threads(repeat_to("ab", 3 * kTile + 1001), pattern, false);
    const lesson12::ThreadScans scans = lesson12::scan_threads_on_host(same, repeat_to("a", m));
    REQUIRE(scans.positions == cpu_kmp(same, repeat_to("a", m)));
    for (std::size_t t = 0; t < scans.bytes_scanned.size(); ++t) {
      INFO("thread " << t << ", m " << m);
      CHECK(scans.bytes_scanned[t] == std::min(kStride + m - 1, same.size() - t * kStride));
    }
  }
}

TEST_CASE("v3's threads read a few bytes past their strides on random text, whatever m", "[todo]") {
  // The lesson's point: a thread's work does not grow with m. On random DNA a partial match rarely
  // lasts: about half a byte past the stride on average, at m = 16 as at m = 4096. The pattern occurs
  // once (at 99,991): the thread whose stride holds that start reads the m - 1 bytes past it, m / threads
  // on the mean. Reading a fixed m - 1 bytes more (v2's rule) would be kStride + 4095 a thread at 4096.
  const Bytes dna = random_bytes(400009, 4, 1202);
  for (std::size_t m : {16, 1024, 4096}) {
    INFO("m " << m);
    const lesson12::ThreadScans scans = lesson12::scan_threads_on_host(dna, prefix(dna, 99991, m));
    CHECK(scans.positions == cpu_kmp(dna, prefix(dna, 99991, m)));
    const double one_occurrence = static_cast<double>(m) / static_cast<double>(scans.bytes_scanned.size());
    CHECK(mean_bytes(scans) < static_cast<double>(kStride) + 1.0 + one_occurrence);
  }
}

TEST_CASE("v3 loops over more tiles than blocks in count mode", "[gpu][todo]") {
  // 2,000 tiles (35 MB), more than the blocks that fit on any GPU at once (an H200: 132 SMs of 8 blocks),
  // so each block of the count pass searches several tiles.
  constexpr std::size_t kTiles = 2000;
  const Bytes dna = random_bytes(kTiles * kTile + 17, 4, 1203);
  check_against_brute_force(v3(), dna, prefix(dna, 5000000, 12));
  check_against_brute_force(v3(), repeat_to("ab", kTiles * kTile + 3), repeat_to("ab", 101));
}

TEST_CASE("v3 falls back to v1 for tables too large to fit beside its tile", "[gpu][todo]") {
  // m = 8,000: next[]'s construction (40 KB) beside next[] itself (16 KB) does not fit in 48 KB; v1 takes it.
  const Bytes text = random_bytes(70000, 2, 1204);
  check_against_brute_force(v3(), text, prefix(text, 23456, 8000));
  check_against_brute_force(v3(), repeat_to("ab", 30000), repeat_to("ab", 8000));
}

TEST_CASE("v3 searches patterns up to kLongestPattern itself and longer ones through v1", "[gpu][todo]") {
  // At kLongestPattern next[] and its construction take 48,124 of the 48 KB beside the block sums: the
  // layout's last bytes are in use (a table laid out past what the launch asked for shows here). One
  // byte more and v1 searches, in both tracks. On "abab..." every thread reads on m - 1 bytes past its
  // stride, far past the staged tile, from global memory.
  const Bytes text = random_bytes(40001, 2, 1207);
  for (std::size_t m : {lesson12::kLongestPattern, lesson12::kLongestPattern + 1}) {
    check_against_brute_force(v3(), text, prefix(text, 12345, m));
    check_against_brute_force(v3(), repeat_to("ab", 30001), repeat_to("ab", m));
  }
}

TEST_CASE("a batch of v3 counts equals the counts one by one", "[gpu][todo]") {
  // Every path of v3 queued together: the DFA alone, the DFA and the failure loop, m = 4096, the
  // fallback, m > n.
  const Bytes text = random_bytes(300001, 4, 1205);
  std::vector<Bytes> patterns;
  for (std::size_t m : {1, 3, 16, 17, 300, 4096, 8000}) patterns.push_back(prefix(text, 1000, m));
  patterns.push_back(random_bytes(300002, 4, 1206));
  check_batch_counts(v3(), text, patterns);
}
