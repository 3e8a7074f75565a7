// Lesson 18 - multi-pattern search: the tables the GPU versions search with, built on the host (given).
//
// The failureless trie (PFAC, Lin et al. 2013): the trie of the patterns and nothing else, no failure
// links. One GPU thread per text position walks it from the root, byte after byte, until a byte has no
// edge; every state it passes where a pattern ends is an occurrence of that pattern at the thread's
// position. States are numbered breadth-first with the children of each state consecutive and sorted
// by their byte, so a state's edges are a range of states: [first_child[s], first_child[s + 1]), the
// byte into child c being edge_byte[c]. Patterns that end at the same state (duplicates) share a
// "terminal": terminal[s] is its number, or -1, and the terminal's patterns, ascending, are
// terminal_patterns[terminal_first[t], terminal_first[t + 1]).
//
// Bytes: 9 per state (first_child, terminal, edge_byte), 8 per terminal, 8 per pattern. 1,000 patterns
// of 8-32 bytes make at most 32,000 states (288 KB); 100,000 at most 3.2 million (29 MB).
//
// Two further tables, for versions 2 and 3:
// - the hot image: the shallow states where most walks end, laid out for shared memory (HotImage);
// - the prefix filter: one bit per hash of the first q bytes of every pattern (PrefixFilter), which a
//   position must pass before it walks the trie.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/byte_view.hpp"

namespace cudamatch::lesson18 {

struct PfacTrie {
  std::vector<std::int32_t> first_child;          // per state, and one more: the end of the last state's children
  std::vector<std::uint8_t> edge_byte;            // per state: the byte on the edge from its parent (the root's: 0)
  std::vector<std::int32_t> terminal;             // per state: its terminal, or -1 when no pattern ends there
  std::vector<std::int32_t> terminal_first;       // per terminal, and one more: where its patterns begin
  std::vector<std::uint32_t> terminal_patterns;   // the patterns of each terminal, ascending
  std::vector<std::int32_t> terminal_of_pattern;  // per pattern: the terminal where it ends
  std::size_t shortest = 0;                       // the shortest and longest pattern (0: no pattern)
  std::size_t longest = 0;

  std::size_t state_count() const { return edge_byte.size(); }
  std::size_t terminal_count() const { return terminal_first.size() - 1; }
  std::size_t pattern_count() const { return terminal_of_pattern.size(); }
  // The bytes of the tables the GPU reads.
  std::size_t bytes() const;
};

// Throws std::invalid_argument naming the first empty pattern, std::length_error when the patterns hold
// 2^31 - 2 bytes or more (state numbers are 32-bit).
void check_patterns(const std::vector<ByteView>& patterns);

// The trie of `patterns`; throws as check_patterns does. An empty set: the root alone.
PfacTrie build_pfac_trie(const std::vector<ByteView>& patterns);

// The hot states in shared memory (versions 2 and 3): the first `hot` states (breadth-first: the root and
// the shallowest levels) and enough of their children to step out of them, as 32-bit words:
//   [0, 256)                       the root's dense row: the child on each byte, or -1 (one step, no search)
//   [256, 256 + hot + 1)           first_child of states 0 .. hot (first_child[hot] = warm)
//   then ceil(warm / 4) words      edge_byte of states 0 .. warm - 1, four per word (little-endian)
//   then ceil(warm / 32) words     one bit per state 0 .. warm - 1: a pattern ends there
// where warm = first_child[hot]: every child of a hot state is below it. A walk looks its steps up in
// the image while its state is hot, and in the global tables after.
// Where the parts of an image of `hot` states (warm = first_child[hot]) begin, in words.
struct HotLayout {
  std::size_t first_child_at;
  std::size_t edge_bytes_at;
  std::size_t terminal_bits_at;
  std::size_t words;  // the whole image
};

__host__ __device__ constexpr HotLayout hot_layout(std::int32_t hot, std::int32_t warm) {
  const std::size_t first_child_at = 256;
  const std::size_t edge_bytes_at = first_child_at + static_cast<std::size_t>(hot) + 1;
  const std::size_t terminal_bits_at = edge_bytes_at + (static_cast<std::size_t>(warm) + 3) / 4;
  return {first_child_at, edge_bytes_at, terminal_bits_at,
          terminal_bits_at + (static_cast<std::size_t>(warm) + 31) / 32};
}

struct HotImage {
  std::vector<std::uint32_t> words;
  std::int32_t hot = 0;
  std::int32_t warm = 0;

  HotLayout layout() const { return hot_layout(hot, warm); }
  std::size_t bytes() const { return words.size() * sizeof(std::uint32_t); }
};

// The words of an image with the first `hot` states of `trie` (1 <= hot <= state_count()).
std::size_t hot_image_words(const PfacTrie& trie, std::int32_t hot);

// The image with as many states as fit in `budget_bytes` (at least the root, whatever the budget: 1,040
// bytes for a root with one child, 1,328 with 256).
HotImage build_hot_image(const PfacTrie& trie, std::size_t budget_bytes);

// The q-gram prefix filter (version 3): q = min(8, shortest pattern), and 2^log2_bits bits, bit
// qgram_hash(first q bytes of p) set for every pattern p. A position where a pattern occurs has its
// q bytes' bit set, so a position whose bit is clear is skipped without walking the trie: no
// occurrence is lost, and a set of P distinct prefixes in 2^b bits lets about 1 - exp(-P / 2^b) of the
// other positions through (false positives, which the walk rejects).
struct PrefixFilter {
  unsigned q = 0;
  unsigned log2_bits = 0;
  std::vector<std::uint32_t> words;  // 2^log2_bits / 32

  std::size_t bytes() const { return words.size() * sizeof(std::uint32_t); }
};

// The bits a filter of `patterns` patterns gets: 256 per pattern (about 0.4% of the other positions
// pass), rounded up to a power of two, from 2^12 (512 bytes) to 2^max_log2_bits.
unsigned filter_log2_bits(std::size_t patterns, unsigned max_log2_bits);

// The filter of `patterns` (non-empty, none empty) with 2^log2_bits bits (5 <= log2_bits <= 32).
PrefixFilter build_prefix_filter(const std::vector<ByteView>& patterns, unsigned log2_bits);

// The first q bytes at `bytes`, little-endian in the low 8q bits (q <= 8).
__host__ __device__ inline std::uint64_t qgram_at(const std::uint8_t* bytes, unsigned q) {
  std::uint64_t gram = 0;
  for (unsigned k = 0; k < q; ++k) gram |= std::uint64_t{bytes[k]} << (8 * k);
  return gram;
}

// The filter bit of a q-gram given as its low and high 32-bit words: two multiplicative hashes summed,
// the top log2_bits bits kept. 32-bit arithmetic, three instructions on the GPU (v3 hashes 16 grams a
// thread from registers); 1 <= log2_bits <= 32.
__host__ __device__ inline std::uint32_t qgram_hash_words(std::uint32_t lo, std::uint32_t hi, unsigned log2_bits) {
  return (lo * 0x9E3779B1u + hi * 0x85EBCA77u) >> (32 - log2_bits);
}

// The filter bit of a q-gram (qgram_at).
__host__ __device__ inline std::uint32_t qgram_hash(std::uint64_t gram, unsigned log2_bits) {
  return qgram_hash_words(static_cast<std::uint32_t>(gram), static_cast<std::uint32_t>(gram >> 32), log2_bits);
}

}  // namespace cudamatch::lesson18
