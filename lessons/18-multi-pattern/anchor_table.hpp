// Lesson 18 - v3's anchors (given, but for the choice of each anchor: anchor_offset.cpp): the
// count pass of a set whose patterns all have 8 bytes or more finds each distinct pattern through one of
// its 8-grams, its *anchor*, instead of through its first 8 bytes. The anchor is the pattern's 8-gram
// that occurs least often in a sample of the text (the first MiB, given when the set is built) and the
// set together (without a sample, in the set alone: a set drawn from a text samples that text too, if
// thinly), so fewer positions pass the filter than with prefixes; a position that passes is verified by
// comparing the few patterns anchored on its gram's bucket, no trie walk.
//
// An occurrence of pattern p at s has p's anchor at s + offset(p), and p has exactly one anchor: the
// occurrence is found once, at that position. Patterns that end at the same trie state (duplicates)
// share a terminal and one entry, so the counts are per terminal, as the walks count.
//
// Hot patterns: a set drawn from a text has a few patterns that occur far more often than the rest (the
// common words of English), and a global atomic per occurrence makes the blocks queue on their counters.
// The kHotSlots entries whose anchors occur most often (in the set and the sample) get a slot in a
// block's counters in shared memory, added to the global ones once, when the block ends: their
// `terminal` is kHotTerminal | the slot, and AnchorTable::hot_terminals gives the slot's terminal. Only
// in sets of up to kHotSetLimit distinct patterns: on an H200 the counters made v3 faster up to 20,000
// patterns drawn from bible.txt and slower from 50,000 on (docs/results/lesson-18.md); larger sets get
// no slot, and their count pass is the kernel without them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

#include "common/byte_view.hpp"
#include "pfac_tables.hpp"

namespace cudamatch::lesson18 {

constexpr unsigned kAnchorBytes = 8;
constexpr std::uint32_t kHotSlots = 4096;            // a block's counters: 16 KB of 32-bit counts
constexpr std::uint32_t kHotTerminal = 0x80000000u;  // AnchorEntry::terminal of a hot entry: this | its slot
constexpr std::size_t kHotSetLimit = 20480;          // 5 x kHotSlots: the largest set measured faster with them

// How many hot slots the anchors of `distinct` distinct patterns get.
constexpr std::size_t hot_slots(std::size_t distinct) {
  return distinct > kHotSetLimit ? 0 : distinct < kHotSlots ? distinct : kHotSlots;
}

// One distinct pattern: its anchor (qgram_at), its terminal (kHotTerminal | its hot slot for a hot one),
// where its anchor lies in it, and its bytes from word `first` of AnchorTable::words.
struct AnchorEntry {
  std::uint64_t anchor;
  std::uint32_t terminal;
  std::uint32_t offset;
  std::uint32_t first;
  std::uint32_t length;
};

struct AnchorTable {
  PrefixFilter filter;                      // the anchors' bits (q = 8)
  unsigned log2_buckets = 0;                // entries hashed by their anchor: anchor_bucket(anchor, log2_buckets)
  std::vector<std::uint32_t> bucket_first;  // 2^log2_buckets + 1: bucket b's entries are [first[b], first[b + 1])
  std::vector<AnchorEntry> entries;
  // The distinct patterns one after another, each from a word of its own: 8 bytes a word (qgram_at's
  // order), the last word of each padded with zeros.
  std::vector<std::uint64_t> words;
  std::vector<std::uint32_t> hot_terminals;  // the terminal of each hot slot (none, or up to kHotSlots)
};

// For each 8-gram of a set (qgram_at(bytes, 8) at every offset of every distinct pattern), how often it
// occurs: in the set, plus in the sample when there is one.
using GramCounts = std::unordered_map<std::uint64_t, std::uint32_t>;

// Where p's anchor lies in p (p has 8 bytes or more; `grams` counts every 8-gram of p): the offset of its
// 8-gram with the smallest count, the first of them on a tie (anchor_offset.cpp).
std::size_t anchor_offset(const ByteView& p, const GramCounts& grams);

// The anchors of the terminals of `trie`, built from `patterns` (build_pfac_trie has checked them; every
// one at least kAnchorBytes long, else std::invalid_argument) and counted in `sample` too (may be empty);
// the filter gets 2^filter_log2_bits bits (5 to 32).
AnchorTable build_anchor_table(const PfacTrie& trie, const std::vector<ByteView>& patterns, unsigned filter_log2_bits,
                               ByteView sample);

// An anchor's bucket: a hash independent of the filters' (qgram_hash), so that a gram that passes them
// may still find its bucket empty.
__host__ __device__ inline std::uint32_t anchor_bucket(std::uint64_t gram, unsigned log2_buckets) {
  const std::uint64_t mixed = (gram ^ (gram >> 29)) * 0xbf58476d1ce4e5b9ull;
  return static_cast<std::uint32_t>(mixed >> (64 - log2_buckets));
}

// The tables as the GPU (or a host test) reads them.
struct AnchorView {
  unsigned log2_buckets;
  const std::uint32_t* bucket_first;
  const AnchorEntry* entries;
  const std::uint64_t* words;
  const std::uint32_t* hot_terminals;  // AnchorTable::hot_terminals, hot_slots of them
  std::uint32_t hot_slots;
};

// The bytes k .. k + 7 of a text in qgram_at's order, from two aligned 8-byte loads (on the GPU `text`
// must be 8-byte aligned): bytes at n or past it are whatever follows the text, so the allocation must
// hold 16 bytes from k & ~7 for every k < n (DeviceText's does). A host test may pass any reader of
// that contract.
struct TextWords {
  const std::uint8_t* text;

  __host__ __device__ std::uint64_t operator()(std::size_t k) const {
    const std::size_t at = k & ~std::size_t{7};
#ifdef __CUDA_ARCH__
    const std::uint64_t low = *reinterpret_cast<const std::uint64_t*>(text + at);
    const std::uint64_t high = *reinterpret_cast<const std::uint64_t*>(text + at + 8);
#else  // the host copies the bytes (a test's buffer need not be aligned)
    std::uint64_t low = 0, high = 0;
    std::memcpy(&low, text + at, sizeof low);
    std::memcpy(&high, text + at + 8, sizeof high);
#endif
    const unsigned shift = 8 * static_cast<unsigned>(k & 7);
    return shift == 0 ? low : (low >> shift) | (high << (64 - shift));
  }
};

// The occurrences whose anchor lies at position i of the text (i + 8 <= n): on_match(terminal, start,
// end) for each entry of the bucket of the 8 bytes at i whose pattern occurs at i - offset (`terminal`
// as the entry holds it: kHotTerminal | slot for a hot one). word_at(k)
// reads the text's bytes k .. k + 7 (k < n; what it gives for bytes past n is never used): a pattern is
// compared 8 bytes at a time, its last word masked.
template <class WordAt, class OnMatch>
__host__ __device__ void verify_anchor(const AnchorView& anchors, std::size_t i, std::size_t n, WordAt word_at,
                                       OnMatch on_match) {
  const std::uint64_t gram = word_at(i);
  const std::uint32_t bucket = anchor_bucket(gram, anchors.log2_buckets);
  for (std::uint32_t e = anchors.bucket_first[bucket]; e < anchors.bucket_first[bucket + 1]; ++e) {
    const AnchorEntry entry = anchors.entries[e];
    if (entry.anchor != gram || i < entry.offset) continue;  // another gram of the bucket, or a start before 0
    const std::size_t start = i - entry.offset;
    if (entry.length > n - start) continue;
    const std::uint64_t* pattern = anchors.words + entry.first;
    std::uint64_t differ = 0;
    std::uint32_t k = 0;
    for (; k + 8 <= entry.length && differ == 0; k += 8) differ = word_at(start + k) ^ pattern[k / 8];
    if (differ == 0 && k < entry.length) {
      const std::uint64_t mask = ~std::uint64_t{0} >> (8 * (8 - (entry.length - k)));  // the length - k bytes left
      differ = (word_at(start + k) ^ pattern[k / 8]) & mask;
    }
    if (differ == 0) on_match(entry.terminal, start, start + entry.length);
  }
}

}  // namespace cudamatch::lesson18
