// Lesson 18 - v3's anchors (given, but for the choice of each anchor: anchor_offset.cpp): the
// count pass of a set whose patterns all have 8 bytes or more finds each distinct pattern through one of
// its 8-grams, its *anchor*, instead of through its first 8 bytes. The anchor is the pattern's 8-gram that
// fewest 8-grams of the whole set equal (a set drawn from a text samples that text: a gram rare in the set
// is likely rare in the text), so fewer positions pass the filter than with prefixes; a position that
// passes is verified by comparing the few patterns anchored on its gram's bucket, no trie walk.
//
// An occurrence of pattern p at s has p's anchor at s + offset(p), and p has exactly one anchor: the
// occurrence is found once, at that position. Patterns that end at the same trie state (duplicates)
// share a terminal and one entry, so the counts are per terminal, as the walks count.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

#include "common/byte_view.hpp"
#include "pfac_tables.hpp"

namespace cudamatch::lesson18 {

constexpr unsigned kAnchorBytes = 8;

// One distinct pattern: its anchor (qgram_at), its terminal, where its anchor lies in it, and its bytes
// in AnchorTable::bytes.
struct AnchorEntry {
  std::uint64_t anchor;
  std::uint32_t terminal;
  std::uint32_t offset;
  std::uint32_t first;
  std::uint32_t length;
};

struct AnchorTable {
  PrefixFilter filter;                      // the anchors' bits (q = 8)
  unsigned log2_buckets = 0;                // entries hashed by their anchor: qgram_hash(anchor, log2_buckets)
  std::vector<std::uint32_t> bucket_first;  // 2^log2_buckets + 1: bucket b's entries are [first[b], first[b + 1])
  std::vector<AnchorEntry> entries;
  std::vector<std::uint8_t> bytes;  // the distinct patterns, one after another
};

// How many of a set's 8-grams (qgram_at(bytes, 8)) equal each 8-gram: every offset of every distinct pattern.
using GramCounts = std::unordered_map<std::uint64_t, std::uint32_t>;

// Where p's anchor lies in p (p has 8 bytes or more; `grams` counts every 8-gram of p): the offset of its
// 8-gram that fewest of the set's 8-grams equal, the first of them on a tie (anchor_offset.cpp).
std::size_t anchor_offset(const ByteView& p, const GramCounts& grams);

// The anchors of the terminals of `trie`, built from `patterns` (every one at least kAnchorBytes long,
// else std::invalid_argument); the filter gets 2^filter_log2_bits bits (5 to 32).
AnchorTable build_anchor_table(const PfacTrie& trie, const std::vector<ByteView>& patterns, unsigned filter_log2_bits);

// The tables as the GPU (or a host test) reads them.
struct AnchorView {
  unsigned log2_buckets;
  const std::uint32_t* bucket_first;
  const AnchorEntry* entries;
  const std::uint8_t* bytes;
};

// The occurrences whose anchor lies at position i of the text (i + 8 <= n): on_match(terminal, start,
// end) for each entry of the bucket of the 8 bytes at i whose pattern occurs at i - offset. byte_at(k)
// reads the text's byte k (k < n).
template <class ByteAt, class OnMatch>
__host__ __device__ void verify_anchor(const AnchorView& anchors, std::size_t i, std::size_t n, ByteAt byte_at,
                                       OnMatch on_match) {
  std::uint64_t gram = 0;
  for (unsigned k = 0; k < kAnchorBytes; ++k) gram |= std::uint64_t{byte_at(i + k)} << (8 * k);
  const std::uint32_t bucket = qgram_hash(gram, anchors.log2_buckets);
  for (std::uint32_t e = anchors.bucket_first[bucket]; e < anchors.bucket_first[bucket + 1]; ++e) {
    const AnchorEntry entry = anchors.entries[e];
    if (entry.anchor != gram || i < entry.offset) continue;  // another gram of the bucket, or a start before 0
    const std::size_t start = i - entry.offset;
    if (entry.length > n - start) continue;
    std::uint32_t k = 0;
    while (k < entry.length && byte_at(start + k) == anchors.bytes[entry.first + k]) ++k;
    if (k == entry.length) on_match(entry.terminal, start, start + entry.length);
  }
}

}  // namespace cudamatch::lesson18
