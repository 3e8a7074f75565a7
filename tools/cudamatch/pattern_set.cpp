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

SearchPlan plan_search(Backend backend, const AlgorithmSpec& spec, const std::vector<std::size_t>& lengths,
                       const TextTraits& text) {
  SearchPlan plan;
  const std::string on = backend == Backend::cuda ? "cuda" : "cpu";
  if (spec.algorithm) {
    plan.matchers.assign(lengths.size(), spec);
    plan.why = on + ": " +
               (spec.version ? matcher_label(backend, *spec.algorithm, *spec.version)
                             : std::string(algorithm_name(*spec.algorithm)) +
                                   (backend == Backend::cuda ? " (its best version)" : "")) +
               ", as -a names it";
  } else if (backend == Backend::cpu && lengths.size() >= kOnePassForAllFrom) {
    plan.one_pass_for_all = true;
    plan.why = on + ": one Aho-Corasick pass for the " + std::to_string(lengths.size()) + " patterns (" +
               std::to_string(kOnePassForAllFrom) + " or more on the CPU, without -a)";
  } else {
    const DispatchTable& table = dispatch_table(backend, text.sample.alphabet, text.bytes);
    for (std::size_t m : lengths) {
      const DispatchRange& range = dispatch_range(table, m);
      plan.matchers.push_back({range.algorithm, range.version});
    }
    plan.why = explain_choice(backend, text, lengths);
  }
  return plan;
}

std::unique_ptr<PatternSet> make_pattern_set(Backend backend, const SearchPlan& plan,
                                             const std::vector<ByteView>& patterns) {
  if (plan.one_pass_for_all) return one_pass_for_all(patterns);
  std::vector<std::unique_ptr<CpuMatcher>> matchers;
  for (std::size_t k = 0; k < patterns.size(); ++k) {
    matchers.push_back(make_matcher(backend, *plan.matchers[k].algorithm, plan.matchers[k].version, patterns[k]));
  }
  return std::make_unique<OnePassPerPattern>(std::move(matchers));
}

std::unique_ptr<PatternSet> one_pass_for_all(const std::vector<ByteView>& patterns) {
  return std::make_unique<OnePassForAll>(patterns);
}

}  // namespace cudamatch::cli
