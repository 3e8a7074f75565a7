// Lesson 18's tests: the pattern sets and texts they search, and the reference they compare with (the
// CPU Aho-Corasick, common/aho_corasick.hpp, itself tested against brute force).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "common/aho_corasick.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "pfac_tables.hpp"

namespace lesson18_tests {

using Bytes = std::vector<std::uint8_t>;
using Matches = std::vector<cudamatch::PatternMatch>;

inline std::vector<cudamatch::ByteView> views(const std::vector<Bytes>& patterns) {
  return {patterns.begin(), patterns.end()};
}

inline Bytes slice(const Bytes& text, std::size_t at, std::size_t m) {
  return Bytes(text.begin() + static_cast<std::ptrdiff_t>(at), text.begin() + static_cast<std::ptrdiff_t>(at + m));
}

// Every occurrence, by the CPU reference.
inline Matches reference(const Bytes& text, const std::vector<Bytes>& patterns, std::uint64_t base = 0) {
  Matches out;
  cudamatch::AhoCorasick(views(patterns)).find_all(text, base, out);
  return out;
}

// The counts of `matches` (found at base 0) that end after the first `seen` bytes, per pattern.
inline std::vector<std::uint64_t> counts_after(const Matches& matches, const std::vector<Bytes>& patterns,
                                               std::size_t seen) {
  std::vector<std::uint64_t> counts(patterns.size(), 0);
  for (const auto& m : matches) counts[m.pattern] += m.offset + patterns[m.pattern].size() > seen;
  return counts;
}

inline std::string show(const Matches& matches, std::size_t limit = 8) {
  std::ostringstream os;
  os << matches.size() << " matches:";
  for (std::size_t i = 0; i < matches.size() && i < limit; ++i)
    os << " (" << matches[i].offset << ", " << matches[i].pattern << ")";
  return os.str();
}

// The first difference of two match lists, "" when equal.
inline std::string difference(const Matches& got, const Matches& want) {
  if (got == want) return "";
  const auto at = std::mismatch(got.begin(), got.end(), want.begin(), want.end());
  std::ostringstream os;
  os << "got " << show(got) << "; expected " << show(want) << "; first difference at index "
     << (at.first - got.begin());
  if (at.first != got.end()) os << ": got (" << at.first->offset << ", " << at.first->pattern << ")";
  if (at.second != want.end()) os << ", expected (" << at.second->offset << ", " << at.second->pattern << ")";
  return os.str();
}

// A random set over the text's alphabet: `count` patterns of min_m to max_m bytes, about half drawn
// from the text (planted), one in ten a duplicate of an earlier one, one in ten a prefix of an earlier
// one, the rest random over `sigma` letters (random_bytes' alphabet).
inline std::vector<Bytes> random_set(cudamatch::Rng& rng, const Bytes& text, std::size_t count, std::size_t min_m,
                                     std::size_t max_m, unsigned sigma) {
  std::vector<Bytes> patterns(count);
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t m = min_m + rng.below(max_m - min_m + 1);
    const std::uint64_t kind = rng.below(10);
    if (k > 0 && kind == 0) {
      patterns[k] = patterns[rng.below(k)];
    } else if (k > 0 && kind == 1) {
      const Bytes& longer = patterns[rng.below(k)];
      patterns[k] = slice(longer, 0, 1 + rng.below(longer.size()));
    } else if (m <= text.size() && kind < 6) {
      patterns[k] = slice(text, rng.below(text.size() - m + 1), m);
    } else {
      patterns[k] = cudamatch::random_bytes(m, sigma, rng.next());
    }
  }
  return patterns;
}

// `patterns` patterns of 8 to 32 bytes drawn from `text`, and one in ten random bytes that never occur in
// 7-bit text (each holds a byte >= 0x80): the driver's kind of set.
inline std::vector<Bytes> corpus_set(cudamatch::Rng& rng, const Bytes& text, std::size_t count) {
  std::vector<Bytes> patterns(count);
  for (auto& p : patterns) {
    const std::size_t m = 8 + rng.below(25);
    if (rng.below(10) == 0) {
      p = cudamatch::random_bytes(m, 256, rng.next());
      p[rng.below(m)] |= 0x80;
    } else {
      p = slice(text, rng.below(text.size() - m + 1), m);
    }
  }
  return patterns;
}

// The filter's bit of the q bytes at `bytes`, read from its words here, not through may_start: that is
// the student's, and a starter's says false everywhere.
inline bool filter_bit(const cudamatch::lesson18::PrefixFilter& filter, const std::uint8_t* bytes) {
  const std::uint32_t bit =
      cudamatch::lesson18::qgram_hash(cudamatch::lesson18::qgram_at(bytes, filter.q), filter.log2_bits);
  return ((filter.words[bit / 32] >> (bit % 32)) & 1u) != 0;
}

// The patterns of `patterns` that have `min_m` bytes or more, in their order.
inline std::vector<Bytes> at_least(std::size_t min_m, const std::vector<Bytes>& patterns) {
  std::vector<Bytes> kept;
  for (const Bytes& p : patterns) {
    if (p.size() >= min_m) kept.push_back(p);
  }
  return kept;
}

// The runs of 'a': "a", "aa", ... up to `longest` bytes, and "b".
inline std::vector<Bytes> runs_of_a(std::size_t longest) {
  std::vector<Bytes> patterns;
  for (std::size_t m = 1; m <= longest; ++m) patterns.emplace_back(m, 'a');
  patterns.push_back({'b'});
  return patterns;
}

}  // namespace lesson18_tests
