// The benchmark's "what a user would pick instead" rows: glibc memmem and
// std::boyer_moore_horspool_searcher. Neither reports overlapping occurrences by itself: each returns
// the first occurrence at or after a start; the loop restarts one byte after every hit, so both count
// every occurrence, overlapping ones included, exactly like the six algorithms.
#include <cstring>
#include <functional>
#include <stdexcept>

#include "common/matchers/matcher_detail.hpp"

namespace cudamatch {

namespace {

// Every occurrence of an m-byte pattern in t[0..n), overlapping ones included, from a search that
// finds only the first one: find_first(from, end) returns the first hit in [from, end) or end; the
// search restarts one byte after each hit.
template <class FindFirst, class OnMatch>
void each_occurrence(const std::uint8_t* t, std::size_t n, std::size_t m, FindFirst find_first, OnMatch on_match) {
  const std::uint8_t* const end = t + n;
  for (const std::uint8_t* from = t; static_cast<std::size_t>(end - from) >= m;) {
    const std::uint8_t* hit = find_first(from, end);
    if (hit == end) return;
    on_match(static_cast<std::size_t>(hit - t));
    from = hit + 1;
  }
}

class MemmemMatcher final : public detail::ScanMatcher<MemmemMatcher> {
 public:
  explicit MemmemMatcher(ByteView pattern) : ScanMatcher(pattern) {}

  template <class OnMatch>
  void scan(const std::uint8_t* t, std::size_t n, OnMatch on_match) const {
    const std::size_t m = pattern().size();
    const auto find_first = [&](const std::uint8_t* from, const std::uint8_t* end) {
      const void* hit = ::memmem(from, static_cast<std::size_t>(end - from), pattern().data(), m);
      return hit == nullptr ? end : static_cast<const std::uint8_t*>(hit);
    };
    each_occurrence(t, n, m, find_first, on_match);
  }
};

class StdBmhMatcher final : public detail::ScanMatcher<StdBmhMatcher> {
 public:
  explicit StdBmhMatcher(ByteView pattern)
      : ScanMatcher(pattern), searcher_(this->pattern().data(), this->pattern().data() + this->pattern().size()) {}

  template <class OnMatch>
  void scan(const std::uint8_t* t, std::size_t n, OnMatch on_match) const {
    const auto find_first = [&](const std::uint8_t* from, const std::uint8_t* end) {
      return searcher_(from, end).first;
    };
    each_occurrence(t, n, pattern().size(), find_first, on_match);
  }

 private:
  std::boyer_moore_horspool_searcher<const std::uint8_t*> searcher_;
};
}  // namespace

const std::vector<std::string>& comparison_names() {
  static const std::vector<std::string> names = {"memmem", "std-bmh"};
  return names;
}

std::unique_ptr<CpuMatcher> make_comparison_matcher(const std::string& name, ByteView pattern) {
  if (name == "memmem") return std::make_unique<MemmemMatcher>(pattern);
  if (name == "std-bmh") return std::make_unique<StdBmhMatcher>(pattern);
  throw std::invalid_argument("unknown comparison matcher '" + name + "' (memmem, std-bmh)");
}

}  // namespace cudamatch
