// Lesson 18 - multi-pattern search: one thread's work, the same on the GPU and on the host (the tests
// run it in a loop over every position and compare with the CPU Aho-Corasick, no GPU needed).
// STARTER: complete the TODO(18-multi-pattern, ...) holes (README, steps).
//
// A position's walk: from the root, step along the text's bytes while the trie has an edge; every state
// passed where a pattern ends is an occurrence, at the walk's first byte, of that terminal's patterns.
// GlobalTrie steps in the tables in global memory (v1); HotTrie looks the first steps up in the hot
// image in shared memory, and the rest in global memory (v2, v3). A prefix filter says which positions
// may begin an occurrence at all (v3).
#pragma once

#include <cstddef>
#include <cstdint>

#include "pfac_tables.hpp"

namespace cudamatch::lesson18 {

// The trie's tables (PfacTrie), wherever they are: global memory, or host vectors in the tests.
struct TrieView {
  const std::int32_t* first_child;
  const std::uint8_t* edge_byte;
  const std::int32_t* terminal;
};

// TODO(18-multi-pattern, v1): the child of `state` on `byte` (its children: a sorted range), and the walk.
// A binary search over the children's bytes finds the child; the walk steps with trie.step(state, byte)
// from the root (state 0) until a step returns -1 or the text ends, and calls on_terminal at every
// state where trie.is_terminal(state), with trie.terminal_of(state) and the end of the occurrence.
__host__ __device__ inline std::int32_t child_of(const std::int32_t* first_child, const std::uint8_t* edge_byte,
                                                 std::int32_t state, std::uint8_t byte) {
  (void)first_child, (void)edge_byte, (void)state, (void)byte;
  return -1;
}

template <class Trie, class ByteAt, class OnTerminal>
__host__ __device__ void pfac_walk(const Trie& trie, std::size_t start, std::size_t n, ByteAt byte_at,
                                   OnTerminal on_terminal) {
  (void)trie, (void)start, (void)n, (void)byte_at, (void)on_terminal;
}

// v1: every step in global memory.
struct GlobalTrie {
  TrieView tables;

  __host__ __device__ std::int32_t step(std::int32_t state, std::uint8_t byte) const {
    return child_of(tables.first_child, tables.edge_byte, state, byte);
  }
  __host__ __device__ bool is_terminal(std::int32_t state) const { return tables.terminal[state] >= 0; }
  __host__ __device__ std::int32_t terminal_of(std::int32_t state) const { return tables.terminal[state]; }
};

// v2 and v3: the hot image (HotImage, in shared memory on the GPU) before the global tables.
struct HotTrie {
  const std::uint32_t* image;  // HotImage::words
  std::int32_t hot;
  std::int32_t warm;
  TrieView tables;

  __host__ __device__ const std::int32_t* root_row() const { return reinterpret_cast<const std::int32_t*>(image); }
  __host__ __device__ const std::int32_t* hot_first_child() const {
    return reinterpret_cast<const std::int32_t*>(image + hot_layout(hot, warm).first_child_at);
  }
  __host__ __device__ const std::uint8_t* warm_edge_bytes() const {
    return reinterpret_cast<const std::uint8_t*>(image + hot_layout(hot, warm).edge_bytes_at);
  }

  // TODO(18-multi-pattern, v2): a step and the terminal test from the image while the state is hot (or warm).
  // The root's child is root_row()[byte]; a hot state's children are a range of hot_first_child(), their
  // bytes in warm_edge_bytes(); deeper states step in `tables` as GlobalTrie does. The terminal bit of
  // state s < warm is bit s % 32 of image[hot_layout(hot, warm).terminal_bits_at + s / 32].
  __host__ __device__ std::int32_t step(std::int32_t state, std::uint8_t byte) const {
    (void)state, (void)byte;
    return -1;
  }
  __host__ __device__ bool is_terminal(std::int32_t state) const {
    (void)state;
    return false;
  }
  __host__ __device__ std::int32_t terminal_of(std::int32_t state) const { return tables.terminal[state]; }
};

// v3: the prefix filter (PrefixFilter), in shared memory on the GPU.
struct FilterView {
  const std::uint32_t* words;
  unsigned q;
  unsigned log2_bits;
};

// Whether an occurrence may begin at `bytes`, which holds at least q bytes: the bit of their q-gram.
__host__ __device__ inline bool may_start(const FilterView& filter, const std::uint8_t* bytes) {
  // TODO(18-multi-pattern, v3): the filter's bit of the q bytes at `bytes` (qgram_at, qgram_hash).
  (void)filter, (void)bytes;
  return false;
}

// v3 on the GPU tests 16 positions a thread at once, from 16 + 8 text bytes it holds in six 32-bit words
// (little-endian: word k holds the bytes 4k .. 4k + 3 of its window).
constexpr unsigned kWindowPositions = 16;
constexpr unsigned kWindowWords = 6;

// The 32-bit word of a window that begins `shift` bytes into `low` and ends in `high` (0 <= shift < 4).
__host__ __device__ inline std::uint32_t bytes_across(std::uint32_t low, std::uint32_t high, unsigned shift) {
  return shift == 0 ? low : (low >> (8 * shift)) | (high << (32 - 8 * shift));
}

// Bit j (j < 16) set where an occurrence may begin at byte j of the window: may_start's bit for the q
// bytes j .. j + q - 1, computed from the words in registers (bytes past the text: zeros).
__host__ __device__ inline std::uint32_t window_candidates(const FilterView& filter,
                                                           const std::uint32_t (&words)[kWindowWords]) {
  // TODO(18-multi-pattern, v3): the filter's bit of the q bytes at each of the window's 16 positions.
  // For byte j: its gram's low word (bytes j .. j + 3) and high word (j + 4 .. j + 7), from two words
  // each with bytes_across, the bytes past q masked off (low word from q < 4, high word from q < 8);
  // then its bit, qgram_hash_words, as may_start reads it.
  (void)filter, (void)words;
  return 0;
}

}  // namespace cudamatch::lesson18
