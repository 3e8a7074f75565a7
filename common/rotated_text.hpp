// Rotated texts: inputs for the throughput experiments that no code has seen before, and their
// answers without a scan of the text.
//
// A rotated text is a corpus of L bytes read cyclically from an offset r, for as many bytes N as wanted:
//
//     text[i] = corpus[(r + i) mod L],   0 <= i < N
//
// It has the corpus's statistics at any size (it is the corpus repeated to N bytes, starting at byte r
// of it), and a fresh r gives a fresh text of the same size. The number of occurrences of a pattern of
// m bytes in it follows from one period: with cyc[j] = 1 when the pattern occurs in the corpus read
// cyclically from j (pattern[k] == corpus[(j + k) mod L] for every k < m), the window at text offset i
// matches exactly when cyc[(r + i) mod L] = 1, so the count is the number of i in [0, N - m] with
// cyc[(r + i) mod L] = 1: full periods times the number of cyclic occurrences, plus those in the
// remaining part of a period. That holds for any m, longer than the corpus too (a pattern with the
// corpus's period); a text shorter than the pattern has none.
//
// (device_rotation.hpp makes rotated texts on the GPU.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/byte_view.hpp"
#include "common/random.hpp"

namespace cudamatch {

// `size` bytes of `corpus` read cyclically from `offset` (offset mod L): text[i] = corpus[(offset + i)
// mod L]. Throws std::invalid_argument for an empty corpus and a size above zero.
std::vector<std::uint8_t> cyclic_bytes(ByteView corpus, std::size_t offset, std::size_t size);

// The occurrences of one pattern in a corpus read cyclically: computed once (one search of the corpus
// and its first m - 1 bytes again, with the fastest CPU matcher), then the count in any rotated text
// of that corpus in O(log occurrences).
class CyclicOccurrences {
 public:
  // Throws EmptyPatternError for an empty pattern, std::invalid_argument for an empty corpus.
  CyclicOccurrences(ByteView corpus, ByteView pattern);

  // The offsets j in [0, L) where the pattern occurs in the corpus read cyclically, increasing.
  const std::vector<std::uint64_t>& offsets() const { return offsets_; }

  // The number of occurrences of the pattern in the rotated text of `size` bytes read from `offset`
  // (offset mod L), overlapping ones included: what a search of cyclic_bytes(corpus, offset, size) counts.
  std::uint64_t count_in_rotation(std::size_t offset, std::size_t size) const;

 private:
  // The number of cyclic occurrences with begin <= j < end, for 0 <= begin <= end <= L.
  std::uint64_t count_between(std::uint64_t begin, std::uint64_t end) const;

  std::size_t period_;
  std::size_t pattern_size_;
  std::vector<std::uint64_t> offsets_;
};

// One byte of a rotated text changed: text[at] = value.
struct ByteEdit {
  std::uint64_t at = 0;
  std::uint8_t value = 0;
};

// Edits that each break one occurrence of `pattern` in the rotated text of `size` bytes read from
// `offset`: up to `count` occurrences drawn at random, one byte inside each set to another value, at
// distinct positions. A text so edited is no longer periodic, so a search that counted one period and
// multiplied would miss the broken occurrences. None when the pattern does not occur.
std::vector<ByteEdit> breaking_edits(ByteView corpus, const CyclicOccurrences& occurrences, ByteView pattern,
                                     std::size_t offset, std::size_t size, std::size_t count, Rng& rng);

// The occurrences of `pattern` in that rotated text after `edits` (at < size): count_in_rotation
// corrected by a recount of every window an edit touches.
std::uint64_t count_after_edits(ByteView corpus, const CyclicOccurrences& occurrences, ByteView pattern,
                                std::size_t offset, std::size_t size, std::vector<ByteEdit> edits);

}  // namespace cudamatch
