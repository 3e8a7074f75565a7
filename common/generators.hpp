// Deterministic inputs: the same seed gives the same bytes on every machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cudamatch {

// `n` bytes drawn uniformly from an alphabet of `alphabet_size` symbols (1..256). The symbols are the
// bytes 'a', 'a'+1, ... (mod 256): sizes up to 26 give lowercase letters, 256 gives every byte value,
// NUL and >= 0x80 included.
std::vector<std::uint8_t> random_bytes(std::size_t n, unsigned alphabet_size, std::uint64_t seed);

// `n` bases "acgt" in the composition of the E. coli genome of the Canterbury corpus
// (a 24.6%, c 25.4%, g 25.4%, t 24.6%), independent draws.
std::vector<std::uint8_t> random_dna(std::size_t n, std::uint64_t seed);

// `n` bytes of English-like text: words built from English letter frequencies with English word
// lengths, drawn from a 4096-word vocabulary with Zipf frequencies (so words repeat, as in real
// text), capitalized sentences, punctuation, lines of about 70 characters. 7-bit ASCII.
std::vector<std::uint8_t> random_english(std::size_t n, std::uint64_t seed);

// `n` floats uniform in [lo, hi).
std::vector<float> random_floats(std::size_t n, std::uint64_t seed, float lo = -1.0f, float hi = 1.0f);

}  // namespace cudamatch
