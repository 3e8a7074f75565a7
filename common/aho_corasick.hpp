// Aho-Corasick (1975): every occurrence of every pattern of a set in one left-to-right pass over the
// text. The CPU reference of multi-pattern search (issue 22): the GPU versions are tested against it,
// and it is the CPU backend of `cudamatch search` with several patterns.
//
// Semantics: every occurrence of every pattern, overlapping ones included, as (offset, pattern index)
// sorted by offset, then pattern index. Text and patterns are arbitrary bytes (NUL and >= 0x80
// included); a pattern longer than the text has no occurrence; an empty set finds nothing.
// - Duplicates are reported under each of their indices: {"ab", "ab"} finds (i, 0) and (i, 1) at every
//   occurrence i of "ab", as if each pattern had been searched on its own. A caller that wants one
//   label per distinct pattern removes duplicates before (as `cudamatch search` does).
// - A pattern that is a prefix, suffix or inner part of another is found at each of its occurrences
//   (inside the other's too), through the output links below.
// - An empty pattern is an error: std::invalid_argument naming its index.
//
// Layout (17 bytes per state, 12 per pattern, plus the dense rows): the trie's states are numbered in
// breadth-first order, so the children of a state are consecutive states, sorted by their byte, and
// every failure link points to a smaller number. Per state, in one 16-byte record: its first child,
// its failure link (the state of its longest proper suffix in the trie), the lowest pattern that ends
// there, and its output (the nearest state on its suffix chain, itself included, where a pattern
// ends); apart, the byte on the edge into it. The first kDenseStates states (the shallow ones, where a
// scan spends most of its steps) also have a row of 256 transitions with the failure links resolved
// (1 KiB each), so a step follows failure links only from deeper states. Per pattern: its length, the
// state where it ends and its next duplicate. 100,000 patterns of 8-32 bytes make at most 3.2 million
// states (one per pattern byte), at most 61 MB with the dense rows; drawn from bible.txt, 1.3 million
// states and 28 MB (tests/common/test_aho_corasick.cpp checks the formula and a bound).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/byte_view.hpp"

namespace cudamatch {

// One occurrence: pattern `pattern` at byte offset `offset`. Ordered by offset, then pattern.
struct PatternMatch {
  std::uint64_t offset = 0;
  std::uint32_t pattern = 0;

  friend bool operator==(const PatternMatch& a, const PatternMatch& b) {
    return a.offset == b.offset && a.pattern == b.pattern;
  }
  friend bool operator<(const PatternMatch& a, const PatternMatch& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.pattern < b.pattern;
  }
};

// The number of occurrences, of every pattern together and of each (indexed like the patterns).
struct PatternCounts {
  std::uint64_t total = 0;
  std::vector<std::uint64_t> per_pattern;
};

class AhoCorasick {
 public:
  // States kept as dense rows of 256 transitions (4 MiB): more than the shallow states that most
  // steps of a scan visit, even for 100,000 patterns.
  static constexpr std::int32_t kDenseStates = 4096;

  // Builds the automaton of `patterns` (they are not kept). Throws std::invalid_argument for an empty
  // pattern, std::length_error when the patterns hold 2^31 - 1 bytes or more.
  explicit AhoCorasick(const std::vector<ByteView>& patterns);

  // Appends every occurrence in `text`, offsets plus `base`, sorted (offset, then pattern). `out` is
  // not cleared: a caller searching a file in pieces passes each piece's file offset.
  void find_all(ByteView text, std::uint64_t base, std::vector<PatternMatch>& out) const;

  // The number of occurrences in `text` (find_all's) that end after its first `seen` bytes (0: all of
  // them), without listing them: one visit count per state, summed along the failure links after the
  // scan (time O(n + states), not O(occurrences)). `seen` is what a piece of a longer text shares with
  // the piece before it, whose count holds the occurrences that end there.
  PatternCounts count(ByteView text, std::size_t seen = 0) const;

  std::size_t pattern_count() const { return length_.size(); }
  // The length of the longest pattern (0: none): pieces of a text overlap by one byte less.
  std::size_t longest_pattern() const;
  std::size_t state_count() const { return edge_byte_.size(); }
  // The bytes the automaton's tables occupy.
  std::size_t memory_bytes() const;

 private:
  void build_trie(const std::vector<ByteView>& patterns);
  void link_states();
  std::int32_t child(std::int32_t state, std::uint8_t byte) const;  // -1: no such edge
  std::int32_t step(std::int32_t state, std::uint8_t byte) const;   // the transition, failure links followed
  template <class OnState>
  void walk(ByteView text, OnState on_state) const;

  struct State {
    std::int32_t first_child = 0;  // children: [first_child, the next state's first_child)
    std::int32_t fail = 0;         // longest proper suffix that is a state (the root's: itself)
    std::int32_t ends_here = -1;   // lowest pattern whose bytes spell the state, or -1
    std::int32_t output = -1;      // nearest state on the suffix chain, this one included, where a pattern ends
  };
  // Breadth-first numbering, the root is 0; one more State after the last only ends its children.
  std::vector<State> states_;
  std::vector<std::uint8_t> edge_byte_;  // per state: the byte on the edge from its parent
  std::vector<std::int32_t> dense_;      // rows of 256 transitions of the first dense_states_ states
  std::int32_t dense_states_ = 0;
  // Per pattern.
  std::vector<std::uint32_t> length_;
  std::vector<std::int32_t> terminal_;        // the state the pattern's bytes lead to
  std::vector<std::int32_t> next_duplicate_;  // next higher index of the same bytes, or -1
};

}  // namespace cudamatch
