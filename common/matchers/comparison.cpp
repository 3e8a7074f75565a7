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
class MemmemMatcher final : public detail::ScanMatcher<MemmemMatcher> {
 public:
  explicit MemmemMatcher(ByteView pattern) : ScanMatcher(pattern) {}

  template <class OnMatch>
  void scan(ByteView text, OnMatch on_match) const {
    const std::size_t m = pattern().size();
    const std::size_t n = text.size;
    if (m > n) return;
    const std::uint8_t* t = text.data;
    std::size_t s = 0;
    while (n - s >= m) {
      const void* hit = ::memmem(t + s, n - s, pattern().data(), m);
      if (hit == nullptr) return;
      s = static_cast<std::size_t>(static_cast<const std::uint8_t*>(hit) - t);
      on_match(s);
      ++s;
    }
  }
};

class StdBmhMatcher final : public detail::ScanMatcher<StdBmhMatcher> {
 public:
  explicit StdBmhMatcher(ByteView pattern)
      : ScanMatcher(pattern), searcher_(this->pattern().data(), this->pattern().data() + this->pattern().size()) {}

  template <class OnMatch>
  void scan(ByteView text, OnMatch on_match) const {
    const std::size_t m = pattern().size();
    const std::size_t n = text.size;
    if (m > n) return;
    const std::uint8_t* t = text.data;
    const std::uint8_t* end = t + n;
    const std::uint8_t* from = t;
    while (static_cast<std::size_t>(end - from) >= m) {
      const std::uint8_t* hit = searcher_(from, end).first;
      if (hit == end) return;
      on_match(static_cast<std::size_t>(hit - t));
      from = hit + 1;
    }
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
