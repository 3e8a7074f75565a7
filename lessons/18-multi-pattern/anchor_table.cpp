// Lesson 18 - v3's anchor table (given): one entry per distinct pattern, placed by its anchor
// (anchor_offset.cpp, yours), the filter of the anchors and the entries' hash buckets.
#include "anchor_table.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cudamatch::lesson18 {

AnchorTable build_anchor_table(const PfacTrie& trie, const std::vector<ByteView>& patterns, unsigned filter_log2_bits,
                               ByteView sample) {
  for (std::size_t k = 0; k < patterns.size(); ++k) {
    if (patterns[k].size < kAnchorBytes) {
      throw std::invalid_argument("anchors: pattern " + std::to_string(k) + " is shorter than 8 bytes");
    }
  }
  // One pattern per terminal (duplicates end at the same one).
  std::vector<ByteView> distinct;
  distinct.reserve(trie.terminal_count());
  for (std::size_t t = 0; t < trie.terminal_count(); ++t) {
    distinct.push_back(patterns[trie.terminal_patterns[static_cast<std::size_t>(trie.terminal_first[t])]]);
  }
  // How often each 8-gram of the distinct patterns occurs among them, then in the sample (only the set's
  // grams are counted there: the sample's others never reach the map).
  GramCounts grams;
  for (const ByteView& p : distinct) {
    for (std::size_t o = 0; o + kAnchorBytes <= p.size; ++o) ++grams[qgram_at(p.data + o, kAnchorBytes)];
  }
  for (std::size_t i = 0; i + kAnchorBytes <= sample.size; ++i) {
    const auto gram = grams.find(qgram_at(sample.data + i, kAnchorBytes));
    if (gram != grams.end()) ++gram->second;
  }
  AnchorTable table;
  std::vector<ByteView> anchors;
  std::vector<AnchorEntry> entries;
  for (std::size_t t = 0; t < distinct.size(); ++t) {
    const ByteView& p = distinct[t];
    const std::size_t best = anchor_offset(p, grams);
    anchors.push_back({p.data + best, kAnchorBytes});
    entries.push_back({qgram_at(p.data + best, kAnchorBytes), static_cast<std::uint32_t>(t),
                       static_cast<std::uint32_t>(best), static_cast<std::uint32_t>(table.words.size()),
                       static_cast<std::uint32_t>(p.size)});
    for (std::size_t k = 0; k < p.size; k += 8) {
      table.words.push_back(qgram_at(p.data + k, static_cast<unsigned>(std::min<std::size_t>(8, p.size - k))));
    }
  }
  // The hot slots: the entries whose anchors occur most often (in the set and the sample), the first
  // terminal on a tie (a set with kHotTerminal terminals or more cannot fit in a GPU's memory).
  std::vector<std::uint32_t> by_count(entries.size());
  for (std::uint32_t e = 0; e < by_count.size(); ++e) by_count[e] = e;
  const auto count_of = [&](std::uint32_t e) { return grams.at(entries[e].anchor); };
  const std::size_t hot = hot_slots(entries.size());
  if (hot > 0) {
    std::partial_sort(by_count.begin(), by_count.begin() + static_cast<std::ptrdiff_t>(hot), by_count.end(),
                      [&](std::uint32_t a, std::uint32_t b) {
                        return count_of(a) != count_of(b) ? count_of(a) > count_of(b) : a < b;
                      });
  }
  for (std::uint32_t slot = 0; slot < hot; ++slot) {
    table.hot_terminals.push_back(entries[by_count[slot]].terminal);
    entries[by_count[slot]].terminal = kHotTerminal | slot;
  }
  table.filter = build_prefix_filter(anchors, filter_log2_bits);
  // About two buckets an entry, so that most buckets hold one entry or none.
  table.log2_buckets = 1;
  while ((std::size_t{1} << table.log2_buckets) < 2 * entries.size() && table.log2_buckets < 30) ++table.log2_buckets;
  const std::size_t buckets = std::size_t{1} << table.log2_buckets;
  std::vector<std::uint32_t> bucket_of(entries.size());
  table.bucket_first.assign(buckets + 1, 0);
  for (std::size_t e = 0; e < entries.size(); ++e) {
    bucket_of[e] = anchor_bucket(entries[e].anchor, table.log2_buckets);
    ++table.bucket_first[bucket_of[e] + 1];
  }
  for (std::size_t b = 0; b < buckets; ++b) table.bucket_first[b + 1] += table.bucket_first[b];
  table.entries.resize(entries.size());
  std::vector<std::uint32_t> next(table.bucket_first.begin(), table.bucket_first.end() - 1);
  for (std::size_t e = 0; e < entries.size(); ++e) table.entries[next[bucket_of[e]]++] = entries[e];
  return table;
}

}  // namespace cudamatch::lesson18
