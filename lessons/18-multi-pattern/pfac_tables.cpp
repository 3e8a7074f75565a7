#include "pfac_tables.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>

namespace cudamatch::lesson18 {

void check_patterns(const std::vector<ByteView>& patterns) {
  std::size_t bytes = 0;
  for (std::size_t k = 0; k < patterns.size(); ++k) {
    if (patterns[k].size == 0) {
      throw std::invalid_argument("multi-pattern search: pattern " + std::to_string(k) +
                                  " is empty (an empty pattern would match at every offset)");
    }
    bytes += patterns[k].size;
  }
  if (bytes >= (std::size_t{1} << 31) - 2) {
    throw std::length_error("multi-pattern search: the patterns hold " + std::to_string(bytes) +
                            " bytes; at most 2^31 - 3 are supported");
  }
}

namespace {

// The pattern indices in lexicographic order of their bytes (a prefix before what extends it).
std::vector<std::uint32_t> sorted_order(const std::vector<ByteView>& patterns) {
  std::vector<std::uint32_t> order(patterns.size());
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    const ByteView& x = patterns[a];
    const ByteView& y = patterns[b];
    if (std::lexicographical_compare(x.data, x.data + x.size, y.data, y.data + y.size)) return true;
    if (std::lexicographical_compare(y.data, y.data + y.size, x.data, x.data + x.size)) return false;
    return a < b;
  });
  return order;
}

// Groups the patterns by the state where they end: terminals numbered in state order, their patterns
// ascending.
void add_terminals(PfacTrie& trie, const std::vector<std::int32_t>& ends) {
  std::vector<std::pair<std::int32_t, std::uint32_t>> by_state;  // (state, pattern)
  by_state.reserve(ends.size());
  for (std::size_t k = 0; k < ends.size(); ++k) by_state.emplace_back(ends[k], static_cast<std::uint32_t>(k));
  std::sort(by_state.begin(), by_state.end());
  trie.terminal.assign(trie.state_count(), -1);
  trie.terminal_first = {0};
  trie.terminal_of_pattern.assign(ends.size(), -1);
  for (std::size_t i = 0; i < by_state.size(); ++i) {
    const auto [state, pattern] = by_state[i];
    if (i == 0 || by_state[i - 1].first != state) {
      trie.terminal[static_cast<std::size_t>(state)] = static_cast<std::int32_t>(trie.terminal_first.size() - 1);
      trie.terminal_first.push_back(trie.terminal_first.back());
    }
    trie.terminal_patterns.push_back(pattern);
    ++trie.terminal_first.back();
    trie.terminal_of_pattern[pattern] = trie.terminal[static_cast<std::size_t>(state)];
  }
}

}  // namespace

std::size_t PfacTrie::bytes() const {
  return first_child.size() * sizeof(std::int32_t) + edge_byte.size() + terminal.size() * sizeof(std::int32_t) +
         terminal_first.size() * sizeof(std::int32_t) + terminal_patterns.size() * sizeof(std::uint32_t);
}

PfacTrie build_pfac_trie(const std::vector<ByteView>& patterns) {
  check_patterns(patterns);
  PfacTrie trie;
  trie.edge_byte = {0};  // the root
  std::vector<std::int32_t> children = {0};
  std::vector<std::int32_t> node(patterns.size(), 0);  // the state of each pattern's first d bytes
  std::vector<std::int32_t> ends(patterns.size(), 0);
  // Level by level: the patterns longer than d - 1, in lexicographic order, so that the states of
  // depth d come out in the order of their parents, then of their byte (breadth-first, children
  // consecutive and sorted).
  std::vector<std::uint32_t> active = sorted_order(patterns);
  for (std::size_t d = 1; !active.empty(); ++d) {
    std::int32_t parent = -1, state = -1;
    int byte = -1;
    for (std::uint32_t k : active) {
      const std::uint8_t b = patterns[k].data[d - 1];
      if (node[k] != parent || b != byte) {
        parent = node[k];
        byte = b;
        state = static_cast<std::int32_t>(trie.edge_byte.size());
        trie.edge_byte.push_back(b);
        children.push_back(0);
        ++children[static_cast<std::size_t>(parent)];
      }
      node[k] = state;
      if (patterns[k].size == d) ends[k] = state;
    }
    active.erase(std::remove_if(active.begin(), active.end(), [&](std::uint32_t k) { return patterns[k].size == d; }),
                 active.end());
  }
  // The children of state s follow those of every state before it, after the root.
  trie.first_child.resize(children.size() + 1);
  trie.first_child[0] = 1;
  for (std::size_t s = 0; s < children.size(); ++s) trie.first_child[s + 1] = trie.first_child[s] + children[s];
  add_terminals(trie, ends);
  for (const ByteView& p : patterns) {
    trie.shortest = trie.shortest == 0 ? p.size : std::min(trie.shortest, p.size);
    trie.longest = std::max(trie.longest, p.size);
  }
  return trie;
}

std::size_t hot_image_words(const PfacTrie& trie, std::int32_t hot) {
  return hot_layout(hot, trie.first_child[static_cast<std::size_t>(hot)]).words;
}

HotImage build_hot_image(const PfacTrie& trie, std::size_t budget_bytes) {
  // The most states that fit (hot_image_words grows with hot), the root at least.
  std::int32_t lo = 1, hi = static_cast<std::int32_t>(trie.state_count());
  while (lo < hi) {
    const std::int32_t mid = lo + (hi - lo + 1) / 2;
    if (hot_image_words(trie, mid) * sizeof(std::uint32_t) <= budget_bytes) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  HotImage image;
  image.hot = lo;
  image.warm = trie.first_child[static_cast<std::size_t>(lo)];
  const HotLayout layout = image.layout();
  image.words.assign(layout.words, 0);
  std::fill(image.words.begin(), image.words.begin() + layout.first_child_at, ~0u);  // the root row; -1: no edge
  for (std::int32_t c = trie.first_child[0]; c < trie.first_child[1]; ++c) {
    image.words[trie.edge_byte[static_cast<std::size_t>(c)]] = static_cast<std::uint32_t>(c);
  }
  for (std::int32_t s = 0; s <= image.hot; ++s) {
    image.words[layout.first_child_at + static_cast<std::size_t>(s)] =
        static_cast<std::uint32_t>(trie.first_child[static_cast<std::size_t>(s)]);
  }
  for (std::size_t s = 0; s < static_cast<std::size_t>(image.warm); ++s) {
    image.words[layout.edge_bytes_at + s / 4] |= std::uint32_t{trie.edge_byte[s]} << (8 * (s % 4));
    if (trie.terminal[s] >= 0) image.words[layout.terminal_bits_at + s / 32] |= 1u << (s % 32);
  }
  return image;
}

unsigned filter_log2_bits(std::size_t patterns, unsigned max_log2_bits) {
  unsigned bits = 12;
  while (bits < max_log2_bits && (std::uint64_t{1} << bits) < 256 * std::uint64_t{patterns}) ++bits;
  return std::min(bits, max_log2_bits);
}

PrefixFilter build_prefix_filter(const std::vector<ByteView>& patterns, unsigned log2_bits) {
  if (patterns.empty() || log2_bits < 5 || log2_bits > 32) {
    throw std::invalid_argument("prefix filter: needs patterns and 5 to 32 bits of hash (got " +
                                std::to_string(log2_bits) + ")");
  }
  check_patterns(patterns);
  PrefixFilter filter;
  std::size_t shortest = patterns.front().size;
  for (const ByteView& p : patterns) shortest = std::min(shortest, p.size);
  filter.q = static_cast<unsigned>(std::min<std::size_t>(8, shortest));
  filter.log2_bits = log2_bits;
  filter.words.assign((std::size_t{1} << log2_bits) / 32, 0);
  for (const ByteView& p : patterns) {
    const std::uint32_t bit = qgram_hash(qgram_at(p.data, filter.q), log2_bits);
    filter.words[bit / 32] |= 1u << (bit % 32);
  }
  return filter;
}

}  // namespace cudamatch::lesson18
