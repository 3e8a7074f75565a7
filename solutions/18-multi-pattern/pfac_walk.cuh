// Lesson 18 - multi-pattern search: one thread's work, the same on the GPU and on the host (the tests
// run it in a loop over every position and compare with the CPU Aho-Corasick, no GPU needed).
// SOLUTION.
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

// HOLE(18-multi-pattern, v1): the child of `state` on `byte` (its children: a sorted range), and the walk.
// The child of `state` on `byte`, or -1: the children of `state` are the states [first_child[state],
// first_child[state + 1]), sorted by their edge_byte, so a binary search finds it.
__host__ __device__ inline std::int32_t child_of(const std::int32_t* first_child, const std::uint8_t* edge_byte,
                                                 std::int32_t state, std::uint8_t byte) {
  std::int32_t lo = first_child[state], hi = first_child[state + 1];
  while (lo < hi) {
    const std::int32_t mid = lo + (hi - lo) / 2;
    if (edge_byte[mid] < byte) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < first_child[state + 1] && edge_byte[lo] == byte ? lo : -1;
}

// Walks the trie from the root along the bytes at start, start + 1, ... (byte_at(k), k < n) while there
// is an edge, and calls on_terminal(terminal, end) at every state where patterns end, `end` one past
// the occurrence's last byte. Steps: at most the longest pattern.
template <class Trie, class ByteAt, class OnTerminal>
__host__ __device__ void pfac_walk(const Trie& trie, std::size_t start, std::size_t n, ByteAt byte_at,
                                   OnTerminal on_terminal) {
  std::int32_t state = 0;
  for (std::size_t k = start; k < n; ++k) {
    state = trie.step(state, byte_at(k));
    if (state < 0) return;
    if (trie.is_terminal(state)) on_terminal(trie.terminal_of(state), k + 1);
  }
}
// END HOLE

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

  // HOLE(18-multi-pattern, v2): a step and the terminal test from the image while the state is hot (or warm).
  // The root: its dense row, one load. Another hot state: its children's range and bytes are in the
  // image. A colder state: the global tables.
  __host__ __device__ std::int32_t step(std::int32_t state, std::uint8_t byte) const {
    if (state == 0) return root_row()[byte];
    if (state < hot) return child_of(hot_first_child(), warm_edge_bytes(), state, byte);
    return child_of(tables.first_child, tables.edge_byte, state, byte);
  }
  // States below `warm` (the hot ones and their children, where most walks end) have their terminal
  // bit in the image: the global table is read only where a pattern ends, or deeper.
  __host__ __device__ bool is_terminal(std::int32_t state) const {
    if (state < warm) return (image[hot_layout(hot, warm).terminal_bits_at + state / 32] >> (state % 32)) & 1u;
    return tables.terminal[state] >= 0;
  }
  // END HOLE
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
  // HOLE(18-multi-pattern, v3): the filter's bit of the q bytes at `bytes` (qgram_at, qgram_hash).
  const std::uint32_t bit = qgram_hash(qgram_at(bytes, filter.q), filter.log2_bits);
  return (filter.words[bit / 32] >> (bit % 32)) & 1u;
  // END HOLE
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
  // HOLE(18-multi-pattern, v3): the filter's bit of the q bytes at each of the window's 16 positions.
  // The q bytes of a gram: all of its low word from q = 4, of its high word only at q = 8.
  const std::uint32_t low_mask = filter.q >= 4 ? ~0u : (1u << (8 * filter.q)) - 1;
  const std::uint32_t high_mask = filter.q >= 8 ? ~0u : filter.q <= 4 ? 0u : (1u << (8 * (filter.q - 4))) - 1;
  // Each position's bit enters at the top and the earlier ones move down one place: a funnel shift a
  // position (no mask, no shift by j); after the 16, position j's bit is bit 16 + j.
  std::uint32_t candidates = 0;
#ifdef __CUDA_ARCH__
#pragma unroll  // (host compilers warn of a pragma they do not know; the host tests need no unrolling)
#endif
  for (unsigned j = 0; j < kWindowPositions; ++j) {
    const unsigned k = j / 4, shift = j % 4;  // constants once unrolled: one funnel shift per word
    const std::uint32_t low = bytes_across(words[k], words[k + 1], shift) & low_mask;
    const std::uint32_t high = bytes_across(words[k + 1], words[k + 2], shift) & high_mask;
    const std::uint32_t bit = qgram_hash_words(low, high, filter.log2_bits);
    candidates = (candidates >> 1) | (filter.words[bit / 32] >> (bit % 32) << 31);
  }
  return candidates >> (32 - kWindowPositions);
  // END HOLE
}

}  // namespace cudamatch::lesson18
