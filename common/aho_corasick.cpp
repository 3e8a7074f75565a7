#include "common/aho_corasick.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

namespace cudamatch {

namespace {
constexpr std::size_t kRow = 256;  // transitions per dense row: one per byte value
}  // namespace

AhoCorasick::AhoCorasick(const std::vector<ByteView>& patterns) {
  std::size_t bytes = 0;
  for (std::size_t k = 0; k < patterns.size(); ++k) {
    if (patterns[k].size == 0) {
      throw std::invalid_argument("Aho-Corasick: pattern " + std::to_string(k) +
                                  " is empty (an empty pattern would match at every offset)");
    }
    bytes += patterns[k].size;
  }
  // State ids and pattern indices are int32: at most one state per pattern byte, plus the root.
  if (bytes >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max())) {
    throw std::length_error("Aho-Corasick: the patterns hold " + std::to_string(bytes) +
                            " bytes; at most 2^31 - 2 are supported");
  }
  build_trie(patterns);
  link_states();
}

// The trie in breadth-first order, from the patterns sorted lexicographically: the patterns that begin
// with a state's bytes are a contiguous range of that order, those equal to them come first, and the
// rest split into the children's ranges by their next byte, in increasing byte order.
void AhoCorasick::build_trie(const std::vector<ByteView>& patterns) {
  const std::size_t count = patterns.size();
  length_.resize(count);
  terminal_.resize(count);
  next_duplicate_.assign(count, -1);
  std::vector<std::uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {  // duplicates by index
    const ByteView& x = patterns[a];
    const ByteView& y = patterns[b];
    return std::lexicographical_compare(x.data, x.data + x.size, y.data, y.data + y.size);
  });

  struct Range {
    std::uint32_t begin, end;  // of `order`
  };
  std::vector<Range> ranges = {{0, static_cast<std::uint32_t>(count)}};  // one per state made so far
  edge_byte_ = {0};
  states_.clear();
  std::size_t depth = 0;      // of state s
  std::size_t level_end = 1;  // the first state deeper than s
  for (std::size_t s = 0; s < ranges.size(); ++s) {
    if (s == level_end) {  // every state of the next level is made by now
      ++depth;
      level_end = ranges.size();
    }
    State state;
    state.first_child = static_cast<std::int32_t>(ranges.size());
    std::uint32_t i = ranges[s].begin;
    const std::uint32_t end = ranges[s].end;
    for (std::int32_t previous = -1; i < end && patterns[order[i]].size == depth; ++i) {  // s's own patterns
      const auto k = static_cast<std::int32_t>(order[i]);
      length_[k] = static_cast<std::uint32_t>(depth);
      terminal_[k] = static_cast<std::int32_t>(s);
      (previous < 0 ? state.ends_here : next_duplicate_[previous]) = k;
      previous = k;
    }
    states_.push_back(state);
    while (i < end) {
      const std::uint8_t byte = patterns[order[i]][depth];
      std::uint32_t j = i + 1;
      while (j < end && patterns[order[j]][depth] == byte) ++j;
      ranges.push_back({i, j});
      edge_byte_.push_back(byte);
      i = j;
    }
  }
  State end_of_children;  // the sentinel
  end_of_children.first_child = static_cast<std::int32_t>(ranges.size());
  states_.push_back(end_of_children);
  states_.shrink_to_fit();
  edge_byte_.shrink_to_fit();
}

// Failure links, outputs and dense rows, state by state in breadth-first order: what a state needs
// (its failure link, the rows and links of shallower states) is made before it.
void AhoCorasick::link_states() {
  const auto states = static_cast<std::int32_t>(state_count());
  dense_states_ = std::min(states, kDenseStates);
  dense_.resize(static_cast<std::size_t>(dense_states_) * kRow);
  for (std::int32_t s = 0; s < states; ++s) {
    State& state = states_[s];
    state.output = state.ends_here >= 0 ? s : (s == 0 ? -1 : states_[state.fail].output);
    if (s < dense_states_) {
      std::int32_t* row = &dense_[s * kRow];
      for (std::size_t c = 0; c < kRow; ++c) {
        const std::int32_t next = child(s, static_cast<std::uint8_t>(c));
        row[c] = next >= 0 ? next : (s == 0 ? 0 : dense_[state.fail * kRow + c]);
      }
    }
    for (std::int32_t u = state.first_child; u < states_[s + 1].first_child; ++u)
      states_[u].fail = s == 0 ? 0 : step(state.fail, edge_byte_[u]);
  }
}

std::int32_t AhoCorasick::child(std::int32_t state, std::uint8_t byte) const {
  const auto first = edge_byte_.begin() + states_[state].first_child;
  const auto last = edge_byte_.begin() + states_[state + 1].first_child;
  const auto at = std::lower_bound(first, last, byte);
  return at != last && *at == byte ? static_cast<std::int32_t>(at - edge_byte_.begin()) : -1;
}

std::int32_t AhoCorasick::step(std::int32_t state, std::uint8_t byte) const {
  while (state >= dense_states_) {
    const std::int32_t next = child(state, byte);
    if (next >= 0) return next;
    state = states_[state].fail;
  }
  return dense_[state * kRow + byte];
}

// Calls on_state(i, state) with the state after each text byte i: the patterns that end at byte i are
// those that end at the states of its suffix chain.
template <class OnState>
void AhoCorasick::walk(ByteView text, OnState on_state) const {
  std::int32_t state = 0;
  for (std::size_t i = 0; i < text.size; ++i) {
    state = step(state, text[i]);
    on_state(i, state);
  }
}

void AhoCorasick::find_all(ByteView text, std::uint64_t base, std::vector<PatternMatch>& out) const {
  const std::size_t first = out.size();
  walk(text, [&](std::size_t i, std::int32_t state) {
    for (std::int32_t t = states_[state].output; t >= 0; t = states_[states_[t].fail].output) {  // longest first
      for (std::int32_t k = states_[t].ends_here; k >= 0; k = next_duplicate_[k]) {
        out.push_back({base + i + 1 - length_[k], static_cast<std::uint32_t>(k)});
      }
    }
  });
  // Found by where they end: sorted by where they start.
  std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end());
}

PatternCounts AhoCorasick::count(ByteView text, std::size_t seen) const {
  // visits[s]: the text positions from `seen` on whose state has s on its suffix chain, i.e. where the
  // patterns ending at s end. Counted at the states themselves, then passed down each failure link,
  // deepest first.
  std::vector<std::uint64_t> visits(state_count(), 0);
  walk(text, [&](std::size_t i, std::int32_t state) { visits[state] += i >= seen ? 1 : 0; });
  for (std::size_t s = visits.size(); s-- > 1;) visits[states_[s].fail] += visits[s];
  PatternCounts counts;
  counts.per_pattern.resize(pattern_count());
  for (std::size_t k = 0; k < pattern_count(); ++k) {
    counts.per_pattern[k] = visits[terminal_[k]];
    counts.total += counts.per_pattern[k];
  }
  return counts;
}

std::size_t AhoCorasick::longest_pattern() const {
  return length_.empty() ? 0 : *std::max_element(length_.begin(), length_.end());
}

std::size_t AhoCorasick::memory_bytes() const {
  return edge_byte_.capacity() + sizeof(State) * states_.capacity() +
         4 * (dense_.capacity() + length_.capacity() + terminal_.capacity() + next_duplicate_.capacity());
}

}  // namespace cudamatch
