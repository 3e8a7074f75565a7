// Lesson 11, v3 - word_flags on its own (a student TODO, a device function: run on the GPU through
// v3_word_flags) against its definition, written plainly on the host.
#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <iterator>
#include <string>
#include <vector>

#include "common/buffers.hpp"
#include "common/random.hpp"
#include "brute_force_gpu.hpp"

using namespace cudamatch;

namespace {

// 0x80 in byte j where the bytes j .. j + used - 1 of lo and then hi (in memory order, little-endian)
// equal first[0, used).
unsigned reference_flags(unsigned lo, unsigned hi, const std::uint8_t* first, unsigned used) {
  std::uint8_t bytes[8];
  for (unsigned b = 0; b < 4; ++b) {
    bytes[b] = static_cast<std::uint8_t>(lo >> (8 * b));
    bytes[4 + b] = static_cast<std::uint8_t>(hi >> (8 * b));
  }
  unsigned flags = 0;
  for (unsigned j = 0; j < 4; ++j) {
    bool equal = true;
    for (unsigned t = 0; t < used; ++t) equal = equal && bytes[j + t] == first[t];
    if (equal) flags |= 0x80u << (8 * j);
  }
  return flags;
}

// A text byte near pattern byte p: p itself, p with its lowest or highest bit flipped (the differences
// a borrow or a sign bit gets wrong), its complement, NUL, 0x80, 0xFF, or any byte.
std::uint8_t near(std::uint8_t p, Rng& rng) {
  const auto any = static_cast<unsigned>(rng.next() & 0xFF);
  const unsigned choices[] = {p, p, p, p ^ 0x01u, p ^ 0x80u, p ^ 0xFFu, 0x00, 0x80, 0xFF, any};
  return static_cast<std::uint8_t>(choices[rng.below(std::size(choices))]);
}

std::string hex(unsigned value, int digits) {
  char text[16];
  std::snprintf(text, sizeof text, "%0*x", digits, value);
  return text;
}

}  // namespace

TEST_CASE("v3: word_flags flags exactly where the pattern's first bytes start, NUL and bytes >= 0x80 included",
          "[gpu][todo]") {
  constexpr std::size_t kWords = 1 << 16;
  Rng rng(707);
  std::vector<unsigned> lo(kWords), hi(kWords), flags(kWords);
  DeviceBuffer<unsigned> dlo(kWords), dhi(kWords), dflags(kWords);
  // Patterns of the bytes where byte-SIMD tricks go wrong, then random ones.
  const std::vector<std::vector<std::uint8_t>> special = {
      {0x00, 0x00, 0x00, 0x00}, {0x80, 0x80, 0x80, 0x80}, {0xFF, 0xFF, 0xFF, 0xFF}, {0x01, 0x00, 0x80, 0x7F},
      {0x7F, 0x80, 0xFF, 0x00}, {'A', 'C', 'G', 'T'},     {0xFE, 0x01, 0xFF, 0x00}};
  for (unsigned used = 1; used <= 4; ++used) {
    for (std::size_t p = 0; p < special.size() + 25; ++p) {
      std::vector<std::uint8_t> first = p < special.size() ? special[p] : std::vector<std::uint8_t>(4);
      if (p >= special.size()) {
        for (auto& b : first) b = static_cast<std::uint8_t>(rng.next());
      }
      // Three word pairs in four: the pattern repeated from a random shift, each byte near the
      // pattern's (matches and near misses at every byte); the rest uniformly random.
      for (std::size_t i = 0; i < kWords; ++i) {
        unsigned words[2] = {static_cast<unsigned>(rng.next()), static_cast<unsigned>(rng.next())};
        if (i % 4 != 0) {
          const auto shift = static_cast<unsigned>(rng.below(used));
          words[0] = words[1] = 0;
          for (unsigned b = 0; b < 8; ++b) {
            words[b / 4] |= unsigned{near(first[(b + shift) % used], rng)} << (8 * (b % 4));
          }
        }
        lo[i] = words[0];
        hi[i] = words[1];
      }
      dlo.upload(lo.data(), kWords);
      dhi.upload(hi.data(), kWords);
      dflags.fill_bytes(0x5A);
      lesson11::v3_word_flags(dlo.data(), dhi.data(), kWords, first.data(), used, dflags.data(), nullptr);
      dflags.download(flags.data(), kWords);

      std::size_t wrong = 0, matched = 0, first_wrong = kWords;
      for (std::size_t i = 0; i < kWords; ++i) {
        const unsigned expected = reference_flags(lo[i], hi[i], first.data(), used);
        matched += expected != 0;
        if (flags[i] != expected && wrong++ == 0) first_wrong = i;
      }
      INFO("used " << used << ", pattern bytes " << hex(first[0], 2) << ' ' << hex(first[1], 2) << ' '
                   << hex(first[2], 2) << ' ' << hex(first[3], 2) << ", " << matched << " of " << kWords
                   << " word pairs with a flag");
      if (wrong != 0) {
        const std::size_t i = first_wrong;
        INFO(wrong << " wrong; the first: lo 0x" << hex(lo[i], 8) << ", hi 0x" << hex(hi[i], 8) << ": flags 0x"
                   << hex(flags[i], 8) << ", expected 0x" << hex(reference_flags(lo[i], hi[i], first.data(), used), 8));
        CHECK(wrong == 0);
      }
      CHECK(matched > 0);  // the inputs hold occurrences to flag
    }
  }
}
