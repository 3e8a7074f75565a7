// Lesson 15 - EPSM-alpha on the GPU. Every version against the CPU brute force; [todo] marks the tests
// of the starter's TODOs (v1, v2). The byte-SIMD helpers of byte_simd.cuh are tested on the host.
#include <catch2/catch.hpp>

#include <algorithm>

#include "byte_simd.cuh"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "epsm_gpu.hpp"
#include "gpu_matcher_checks.hpp"
#include "version_checks.hpp"

using namespace cudamatch;
using namespace cudamatch::testing;

namespace {

// Where the versions split the text. v0 and v1: a thread's block of 16 alignments, a block's tile of
// 4096. v2: a lane's 16, a warp's piece of 512 and its span of 2048, a block's tile of 16,384.
const Edges kThreadEdges{"block and tile edges", {16, 4096}};
const Edges kWarpEdges{"piece and tile edges", {16, 512, 2048, 16384}};

const GpuVersion& version(int number) { return epsm_gpu().version(number); }

// n bytes over 0x00, 0x7F, 0x80 and 0xFF: NUL and bytes >= 0x80 in every compare.
std::vector<std::uint8_t> extreme_bytes(std::size_t n, std::uint64_t seed) {
  constexpr std::uint8_t kBytes[4] = {0x00, 0x7F, 0x80, 0xFF};
  auto bytes = random_bytes(n, 4, seed);
  for (auto& byte : bytes) byte = kBytes[(byte - 'a') & 3u];
  return bytes;
}

// Every m from 1 to 33 (the whole packed range, and the first lengths that need verification), with
// occurrences straddling 32-byte edges: a lane's or thread's 16 bytes and the 16 it borrows, words,
// pieces, warp spans and tiles (all multiples of 32). The pattern is planted every 64 bytes, starting
// 0, 1, ..., m-1 bytes before the edge in turn, in a text that crosses v1's and v2's tiles.
void straddling_cases(const GpuVersion& v) {
  for (std::size_t m = 1; m <= 33; ++m) {
    auto text = extreme_bytes(16384 + 2048 + 333, m);
    const auto pattern = extreme_bytes(m, 1000 + m);
    std::size_t back = 0;
    for (std::size_t edge = 64; edge + m <= text.size(); edge += 64, back = (back + 1) % m) {
      std::copy(pattern.begin(), pattern.end(), text.begin() + static_cast<long>(edge - back));
    }
    check_against_brute_force(v, text, pattern);
  }
}

// DeviceText pads the text with zero bytes, and a version reads them: a pattern that ends in NUL bytes
// "occurs" in the padding at the alignments past n - m, which must be masked off. Texts that end with
// such a pattern's leading bytes, the false alignment at each of the 16 offsets of a thread's or lane's
// block. (One true occurrence near the start, so that a version that finds nothing fails too.)
void padding_cases(const GpuVersion& v) {
  for (std::size_t m : {1, 2, 3, 5, 8, 15, 16, 17, 33}) {
    auto pattern = extreme_bytes(m, 2000 + m);
    pattern[0] = 0x80;
    for (std::size_t i = (m + 1) / 2; i < m; ++i) pattern[i] = 0x00;
    const std::size_t head = (m + 1) / 2;  // the bytes before the NUL tail
    for (std::size_t n = 1000; n < 1016; ++n) {
      auto text = extreme_bytes(n, n);
      std::copy(pattern.begin(), pattern.end(), text.begin() + 7);
      std::copy(pattern.begin(), pattern.begin() + static_cast<long>(head), text.end() - static_cast<long>(head));
      check_against_brute_force(v, text, pattern);
    }
  }
}

// Patterns longer than the 16 packed bytes: alignments that pass the packed filter and fail the
// verification (every alignment of a run of 'a', for a pattern 'a'...'a' 'b'), beside full occurrences;
// and periodic texts and patterns, where the filter passes at every period.
void filter_then_verify_cases(const GpuVersion& v) {
  Rng rng(11);
  for (std::size_t m : {16, 17, 20, 32, 33, 48, 100, 300}) {
    std::vector<std::uint8_t> text(20000 + m, 'a');
    for (int k = 0; k < 40; ++k) text[rng.below(text.size())] = 'b';
    std::vector<std::uint8_t> pattern(m, 'a');
    pattern[m - 1] = 'b';
    check_against_brute_force(v, text, pattern);

    std::vector<std::uint8_t> periodic(20000 + m);
    for (std::size_t i = 0; i < periodic.size(); ++i) periodic[i] = static_cast<std::uint8_t>("abc"[i % 3]);
    for (int k = 0; k < 10; ++k) periodic[rng.below(periodic.size())] = 'x';
    check_against_brute_force(v, periodic, std::vector<std::uint8_t>(periodic.begin() + 3, periodic.begin() + 3 + m));
  }
}

void batch_equals_one_by_one(const GpuVersion& v) {
  std::vector<std::vector<std::uint8_t>> patterns;
  for (std::size_t m : {1, 3, 6, 12, 17, 300002}) patterns.push_back(random_bytes(m, 4, m));
  check_batch_counts(v, random_bytes(300001, 4, 12), patterns);
}

// v0 and v1: a thread's 16 alignments; v2: a warp's pieces.
const Edges& edges(int number) { return number < 2 ? kThreadEdges : kWarpEdges; }

}  // namespace

const VersionChecks checks(
    epsm_gpu(), 1100, edges,
    {{"finds every m from 1 to 33 across 32-byte edges", [](const GpuVersion& v, int) { straddling_cases(v); }},
     {"finds nothing in the zero padding after the text", [](const GpuVersion& v, int) { padding_cases(v); }},
     {"verifies what passes the packed filter", [](const GpuVersion& v, int) { filter_then_verify_cases(v); }}});

TEST_CASE("a batch of counts equals the counts one by one", "[gpu]") { batch_equals_one_by_one(version(0)); }
TEST_CASE("a batch of v2 counts equals the counts one by one", "[gpu][todo]") { batch_equals_one_by_one(version(2)); }

// The byte-SIMD helpers, on the host.

TEST_CASE("zero_byte_flags marks exactly the zero bytes, any_zero_byte whether there is one") {
  // Every word made of the bytes around the edges of the test: 0x00, 0x01, 0x7F, 0x80, 0x81, 0xFF.
  constexpr std::uint8_t kBytes[6] = {0x00, 0x01, 0x7F, 0x80, 0x81, 0xFF};
  for (unsigned code = 0; code < 6 * 6 * 6 * 6; ++code) {
    unsigned word = 0, expected = 0;
    for (unsigned b = 0, rest = code; b < 4; ++b, rest /= 6) {
      word |= static_cast<unsigned>(kBytes[rest % 6]) << (8 * b);
      if (kBytes[rest % 6] == 0) expected |= 0x80u << (8 * b);
    }
    INFO("word " << std::hex << word);
    CHECK(lesson15::zero_byte_flags(word) == expected);
    CHECK((lesson15::any_zero_byte(word) != 0) == (expected != 0));
  }
}

TEST_CASE("flag_bits gathers the four flags in byte order") {
  for (unsigned bits = 0; bits < 16; ++bits) {
    unsigned flags = 0;
    for (unsigned b = 0; b < 4; ++b) flags |= ((bits >> b) & 1u) << (8 * b + 7);
    CHECK(lesson15::flag_bits(flags) == bits);
  }
}

TEST_CASE("shifted gives the text 0 to 3 bytes further on, and repeated compares four bytes at once") {
  const auto bytes = random_bytes(8, 256, 5);
  const auto word = [&](std::size_t at) {
    return bytes[at] | bytes[at + 1] << 8 | bytes[at + 2] << 16 | static_cast<unsigned>(bytes[at + 3]) << 24;
  };
  for (unsigned shift = 0; shift < 4; ++shift) CHECK(lesson15::shifted(word(0), word(4), shift) == word(shift));
  const unsigned differ = word(0) ^ lesson15::repeated(bytes[2]);
  CHECK((differ >> 16 & 0xffu) == 0);
  CHECK(lesson15::repeated(0xAB) == 0xABABABABu);
}
