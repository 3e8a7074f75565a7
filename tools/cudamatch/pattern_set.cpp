#include "pattern_set.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

#include "engine/device_text.hpp"

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

  std::optional<PatternCounts> count(ByteView text, std::size_t) override {
    if (matchers_.size() != 1) return std::nullopt;
    const std::uint64_t n = matchers_[0]->count(text);
    return PatternCounts{n, {n}};
  }

 private:
  std::vector<std::unique_ptr<CpuMatcher>> matchers_;
  std::vector<std::uint64_t> offsets_;  // scratch of find
};

// The patterns of a multi-pattern search held longest first, so that its order, (offset, then pattern), is
// the output's (at one offset the longer pattern first): its pattern j is the search's pattern order_[j].
class LongestFirst {
 protected:
  explicit LongestFirst(const std::vector<ByteView>& patterns) : order_(patterns.size()) {
    std::iota(order_.begin(), order_.end(), std::size_t{0});
    std::stable_sort(order_.begin(), order_.end(),
                     [&](std::size_t a, std::size_t b) { return patterns[a].size > patterns[b].size; });
    for (std::size_t k : order_) permuted_.push_back(patterns[k]);
  }

  // The patterns in the order the multi-pattern search holds them.
  const std::vector<ByteView>& permuted() const { return permuted_; }

  // Appends `matches` (the search's indices) to `out` (the command line's). An index beyond the patterns (a
  // GPU kernel's bad record) stays beyond them, for check_matches to report.
  void append(const std::vector<PatternMatch>& matches, std::vector<Hit>& out) const {
    for (const PatternMatch& m : matches)
      out.push_back({m.offset, m.pattern < order_.size() ? order_[m.pattern] : std::size_t{m.pattern}});
  }

  // `counts` (the search's indices) indexed like the command line's patterns.
  PatternCounts in_given_order(const PatternCounts& counts) const {
    PatternCounts given{counts.total, std::vector<std::uint64_t>(order_.size())};
    for (std::size_t j = 0; j < order_.size(); ++j) given.per_pattern[order_[j]] = counts.per_pattern[j];
    return given;
  }

 private:
  std::vector<std::size_t> order_;
  std::vector<ByteView> permuted_;
};

// One Aho-Corasick pass for every pattern.
class OnePassForAll final : public PatternSet, LongestFirst {
 public:
  explicit OnePassForAll(const std::vector<ByteView>& patterns) : LongestFirst(patterns), automaton_(permuted()) {}

  void find(ByteView text, std::uint64_t base, std::vector<Hit>& out) override {
    matches_.clear();
    automaton_.find_all(text, base, matches_);
    append(matches_, out);
  }

  std::optional<PatternCounts> count(ByteView text, std::size_t seen) override {
    return in_given_order(automaton_.count(text, seen));
  }

 private:
  AhoCorasick automaton_;
  std::vector<PatternMatch> matches_;  // scratch of find
};

// One pass of a GPU multi-pattern version for every pattern. The set is built when the first piece of
// text comes, with that piece's head as its sample (engine/multi_matcher.hpp); the command line has
// rejected empty patterns before.
class GpuOnePassForAll final : public PatternSet, LongestFirst {
 public:
  GpuOnePassForAll(const GpuMultiVersion& version, const std::vector<ByteView>& patterns)
      : LongestFirst(patterns), version_(version) {}

  void find(ByteView text, std::uint64_t base, std::vector<Hit>& out) override {
    matches_.clear();
    set_for(text).find_all(upload(text), base, matches_, nullptr);
    append(matches_, out);
  }

  std::optional<PatternCounts> count(ByteView text, std::size_t seen) override {
    return in_given_order(set_for(text).count(upload(text), seen, nullptr));
  }

 private:
  GpuPatternSet& set_for(ByteView text) {
    if (!set_) set_ = version_.build(permuted(), sample_of(text), nullptr);
    return *set_;
  }

  // `text` on the device, in the allocation of the previous pieces when it is large enough.
  const DeviceText& upload(ByteView text) {
    if (!text_ || text_->capacity() < text.size) {
      text_.reset();  // the old allocation goes first
      text_ = std::make_unique<DeviceText>(DeviceText::with_capacity(text.size));
    }
    text_->assign_async(text, nullptr);
    return *text_;
  }

  GpuMultiVersion version_;             // string literals and a function: copied
  std::unique_ptr<GpuPatternSet> set_;  // built by the first find or count
  std::unique_ptr<DeviceText> text_;
  std::vector<PatternMatch> matches_;  // scratch of find
};

}  // namespace

void check_matches(const std::vector<Hit>& found, std::uint64_t base, std::size_t size,
                   const std::vector<std::size_t>& lengths) {
  const auto fail = [&](const Hit& hit, const std::string& why) {
    throw std::runtime_error("the search returned a match (offset " + std::to_string(hit.offset) + ", pattern " +
                             std::to_string(hit.pattern) + ") " + why);
  };
  for (std::size_t i = 0; i < found.size(); ++i) {
    const Hit& hit = found[i];
    if (hit.pattern >= lengths.size()) fail(hit, "of no pattern (there are " + std::to_string(lengths.size()) + ")");
    const std::size_t m = lengths[hit.pattern];
    if (hit.offset < base || m > size || hit.offset - base > size - m) {
      fail(hit,
           "outside the text searched (" + std::to_string(size) + " bytes from offset " + std::to_string(base) + ")");
    }
    const Hit* before = i > 0 ? &found[i - 1] : nullptr;
    if (before != nullptr &&
        !(before->offset < hit.offset || (before->offset == hit.offset && lengths[before->pattern] > m))) {
      fail(hit, "out of order (after offset " + std::to_string(before->offset) + ", pattern " +
                    std::to_string(before->pattern) + ")");
    }
  }
}

SearchPlan plan_search(Backend backend, const AlgorithmSpec& spec, const std::vector<std::size_t>& lengths,
                       const TextTraits& text) {
  SearchPlan plan;
  const std::string on = backend == Backend::cuda ? "cuda" : "cpu";
  const std::string patterns = "the " + std::to_string(lengths.size()) + " patterns";
  const GpuMultiVersion* multi =
      !spec.algorithm && backend == Backend::cuda && lengths.size() >= 2 ? chosen_multi_version() : nullptr;
  if (spec.algorithm) {
    plan.matchers.assign(lengths.size(), spec);
    plan.why = on + ": " +
               (spec.version ? matcher_label(backend, *spec.algorithm, *spec.version)
                             : std::string(algorithm_name(*spec.algorithm)) +
                                   (backend == Backend::cuda ? " (its best version)" : "")) +
               ", as -a names it" + (lengths.size() > 1 ? ", one pass each for " + patterns : "");
  } else if (backend == Backend::cpu && lengths.size() >= kOnePassForAllFrom) {
    plan.pass = SearchPlan::Pass::aho_corasick;
    plan.why = on + ": one Aho-Corasick pass for " + patterns + " (" + std::to_string(kOnePassForAllFrom) +
               " or more on the CPU, without -a)";
  } else if (multi != nullptr) {
    plan.pass = SearchPlan::Pass::gpu_multi;
    plan.multi = multi;
    plan.why = on + ": one pass for " + patterns + " with multi-pattern " + multi->name +
               " (lesson 18's best; 2 or more on the GPU, without -a)";
  } else {
    const DispatchTable& table = dispatch_table(backend, text.sample.alphabet, text.bytes);
    for (std::size_t m : lengths) {
      const DispatchRange& range = dispatch_range(table, m);
      plan.matchers.push_back({range.algorithm, range.version});
    }
    plan.why = explain_choice(backend, text, lengths) + (lengths.size() > 1 ? "; one pass each for " + patterns : "");
  }
  return plan;
}

std::unique_ptr<PatternSet> make_pattern_set(Backend backend, const SearchPlan& plan,
                                             const std::vector<ByteView>& patterns) {
  switch (plan.pass) {
    case SearchPlan::Pass::aho_corasick:
      return one_pass_for_all(patterns);
    case SearchPlan::Pass::gpu_multi:
      return gpu_one_pass_for_all(*plan.multi, patterns);
    case SearchPlan::Pass::each:
      break;
  }
  std::vector<std::unique_ptr<CpuMatcher>> matchers;
  for (std::size_t k = 0; k < patterns.size(); ++k) {
    matchers.push_back(make_matcher(backend, *plan.matchers[k].algorithm, plan.matchers[k].version, patterns[k]));
  }
  return std::make_unique<OnePassPerPattern>(std::move(matchers));
}

std::unique_ptr<PatternSet> one_pass_for_all(const std::vector<ByteView>& patterns) {
  return std::make_unique<OnePassForAll>(patterns);
}

std::unique_ptr<PatternSet> gpu_one_pass_for_all(const GpuMultiVersion& version,
                                                 const std::vector<ByteView>& patterns) {
  return std::make_unique<GpuOnePassForAll>(version, patterns);
}

}  // namespace cudamatch::cli
