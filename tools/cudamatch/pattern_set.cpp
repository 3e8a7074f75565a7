#include "pattern_set.hpp"

#include <algorithm>
#include <numeric>

#include "common/aho_corasick.hpp"

namespace cudamatch::cli {

namespace {

// One pass per pattern, each with its own matcher, the matches merged.
class OnePassPerPattern final : public PatternSet {
 public:
  explicit OnePassPerPattern(std::vector<std::unique_ptr<CpuMatcher>> matchers) : matchers_(std::move(matchers)) {}

  void find(ByteView text, std::uint64_t base, std::vector<Hit>& out) override {
    const std::size_t first = out.size();
    for (std::size_t k = 0; k < matchers_.size(); ++k) {
      offsets_.clear();
      matchers_[k]->find_all(text, base, offsets_);
      for (std::uint64_t offset : offsets_) out.push_back({offset, k});
    }
    if (matchers_.size() == 1) return;  // in order already
    std::sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(), [&](const Hit& a, const Hit& b) {
      if (a.offset != b.offset) return a.offset < b.offset;
      return matchers_[a.pattern]->pattern().size() > matchers_[b.pattern]->pattern().size();
    });
  }

  std::optional<std::uint64_t> count(ByteView text, std::size_t) override {
    if (matchers_.size() != 1) return std::nullopt;
    return matchers_[0]->count(text);
  }

 private:
  std::vector<std::unique_ptr<CpuMatcher>> matchers_;
  std::vector<std::uint64_t> offsets_;  // scratch of find
};

// One Aho-Corasick pass for every pattern. The automaton holds the patterns longest first, so that its
// order (offset, then pattern) is the output's.
class OnePassForAll final : public PatternSet {
 public:
  explicit OnePassForAll(const std::vector<ByteView>& patterns)
      : by_length_(longest_first(patterns)), automaton_(permuted(patterns, by_length_)) {}

  void find(ByteView text, std::uint64_t base, std::vector<Hit>& out) override {
    matches_.clear();
    automaton_.find_all(text, base, matches_);
    for (const PatternMatch& m : matches_) out.push_back({m.offset, by_length_[m.pattern]});
  }

  std::optional<std::uint64_t> count(ByteView text, std::size_t seen) override {
    return automaton_.count(text).total - automaton_.count(ByteView(text.data, seen)).total;
  }

 private:
  static std::vector<std::size_t> longest_first(const std::vector<ByteView>& patterns) {
    std::vector<std::size_t> order(patterns.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return patterns[a].size > patterns[b].size; });
    return order;
  }

  static std::vector<ByteView> permuted(const std::vector<ByteView>& patterns, const std::vector<std::size_t>& order) {
    std::vector<ByteView> out;
    for (std::size_t k : order) out.push_back(patterns[k]);
    return out;
  }

  std::vector<std::size_t> by_length_;  // the automaton's pattern j is the search's pattern by_length_[j]
  AhoCorasick automaton_;
  std::vector<PatternMatch> matches_;  // scratch of find
};

}  // namespace

std::unique_ptr<PatternSet> make_pattern_set(Backend backend, const AlgorithmSpec& spec,
                                             const std::vector<ByteView>& patterns) {
  if (backend == Backend::cpu && patterns.size() >= kOnePassForAllFrom && !spec.algorithm) {
    return one_pass_for_all(patterns);
  }
  std::vector<std::unique_ptr<CpuMatcher>> matchers;
  for (const ByteView& p : patterns) {
    const Algorithm algorithm = spec.algorithm.value_or(default_algorithm(p.size, backend));
    matchers.push_back(make_matcher(backend, algorithm, spec.version, p));
  }
  return std::make_unique<OnePassPerPattern>(std::move(matchers));
}

std::unique_ptr<PatternSet> one_pass_for_all(const std::vector<ByteView>& patterns) {
  return std::make_unique<OnePassForAll>(patterns);
}

}  // namespace cudamatch::cli
