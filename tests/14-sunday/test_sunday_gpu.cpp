// Lesson 14 - Sunday's Quick Search on the GPU. Every version against the CPU brute force; [todo] marks
// the tests of the starter's TODOs (v1, v2).
#include <catch2/catch.hpp>

#include "byte_strings.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "gpu_matcher_checks.hpp"
#include "sunday_gpu.hpp"
#include "version_checks.hpp"

using namespace cudamatch;
using namespace cudamatch::testing;
using lesson14::v2_layout;

namespace {

// Where the versions split the text: chunked_tile_edges (tests/support/version_checks.hpp). v1's block
// tiles (65,536 window starts and more) are crossed by the "across block tiles" test instead: edge_cases'
// all-equal text around them, searched for 65,537 equal bytes, would cost v0 seconds (every window compared
// in full).

const GpuVersion& version(int number) { return sunday_gpu().version(number); }

// Sunday's own traps. The window at n - m has no byte after it: text[n] must not be read, and a match
// there must be found. The window before it shifts on the text's last byte. Bytes >= 0x80 index the
// shift table (through a char they would index it below 0), NUL is a byte like any other. Texts over
// the bytes 0x00, 0x7F, 0x80 and 0xFF whose last m bytes are the pattern, their last window just before,
// on and just after each edge.
void shift_byte_cases(const GpuVersion& v, const std::vector<std::size_t>& edges) {
  constexpr std::uint8_t kBytes[4] = {0x00, 0x7F, 0x80, 0xFF};
  Rng rng(10);
  for (std::size_t m : {1, 2, 3, 5, 16, 69, 300}) {
    std::vector<std::size_t> sizes = {m, m + 1, 2 * m + 1, m + 1000};
    for (std::size_t e : edges) {
      for (std::size_t last : {e - 1, e, e + 1}) sizes.push_back(last + m);
    }
    for (std::size_t n : sizes) {
      auto text = random_bytes(n, 4, rng.next());
      for (auto& byte : text) byte = kBytes[byte & 3u];
      check_against_brute_force(v, text, slice(text, n - m, m));
    }
  }
}

// Sorted positions without a sort need blocks that own consecutive ranges: a 2-letter text has
// matches in every block tile (v1: 65,536 window starts for m < 64; v2: 17,408).
void across_block_tiles(const GpuVersion& v) {
  const auto text = random_bytes(3 * 65536 + 7, 2, 17);
  for (std::size_t m : {1, 2, 9, 63, 64, 300}) check_against_brute_force(v, text, slice(text, 1000 + m, m));
}

}  // namespace

const VersionChecks checks(sunday_gpu(), 1000, chunked_tile_edges,
                           {{"handles the last window, bytes 0x80 to 0xFF and NUL",
                             [](const GpuVersion& v, int number) {
                               shift_byte_cases(v, chunked_tile_edges(number).at);
                             }}});

TEST_CASE("v1 writes sorted positions across block tiles", "[gpu][todo]") { across_block_tiles(version(1)); }
TEST_CASE("v2 writes sorted positions across block tiles", "[gpu][todo]") { across_block_tiles(version(2)); }

TEST_CASE("v1 falls back to v0 for patterns too long for shared memory", "[gpu]") {
  // 50,000 pattern bytes do not fit beside the shift table in 48 KB: v0 answers (given in the starter).
  STATIC_REQUIRE(50000 > kDynamicSharedBytes);
  const auto text = random_bytes(120001, 2, 11);
  check_against_brute_force(version(1), text, slice(text, 54321, 50000));
}

TEST_CASE("v2 hands patterns of up to kV2ShortPath bytes to lesson 11's short path, and searches longer ones",
          "[gpu][todo]") {
  lengths_around_hand_over(version(2), lesson14::kV2ShortPath, 1400);
}

TEST_CASE("v2 falls back to v1 when its tile does not fit in shared memory", "[gpu][todo]") {
  REQUIRE(v2_layout(25000).chunk == 0);
  const auto text = random_bytes(80001, 2, 12);
  check_against_brute_force(version(2), text, slice(text, 23456, 25000));
}

TEST_CASE("v2 chunks are an odd number of words and its tiles fit in shared memory") {
  CHECK(v2_layout(1).chunk == 68);
  CHECK(v2_layout(1088).tile == 17408);  // every m of the experiment (2 to 1024) has this layout
  CHECK(v2_layout(1089).chunk == 76);
  CHECK(v2_layout(18944).chunk == 36);  // the longest pattern that keeps 9 words per thread
  CHECK(v2_layout(18945).chunk == 0);
  std::size_t bad = 0;
  for (std::size_t m = 1; m <= 20000; ++m) {
    const TileLayout l = v2_layout(m);
    const bool falls_back = l.chunk == 0;
    const bool odd_words = l.chunk % 4 == 0 && (l.chunk / 4) % 2 == 1;
    const bool fits = l.shared_bytes <= kDynamicSharedBytes && l.tile == 256 * l.chunk &&
                      l.shared_bytes >= l.tile + 2 * m;  // the text after the tile and the pattern
    if (falls_back != (m > 18944) || (!falls_back && !(odd_words && fits))) {
      INFO("m " << m << ": chunk " << l.chunk << ", tile " << l.tile << ", shared " << l.shared_bytes);
      CHECK(false);
      if (++bad == 5) break;
    }
  }
  CHECK(bad == 0);
}
