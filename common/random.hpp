// A small, fast, portable pseudo-random generator. std::mt19937 is portable but the std::
// distributions are not (libstdc++ and libc++ draw different numbers), and the course's inputs must
// be the same on every machine for a given seed.
#pragma once

#include <cstdint>

namespace cudamatch {

// SplitMix64 (Steele, Lea, Flood 2014): one 64-bit state word, full period, good statistical quality.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }

  // Uniform in [0, bound), bound > 0. The multiply-shift maps 64 random bits onto the range; its bias
  // is below 2^-32 for every bound used here.
  std::uint64_t below(std::uint64_t bound) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * bound) >> 64);
  }

  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

}  // namespace cudamatch
