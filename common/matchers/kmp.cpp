// Knuth-Morris-Pratt: a left-to-right scan that never moves backwards in the text. After a mismatch
// with j pattern bytes matched, the failure function says how many of them are still a match: the
// length of the longest proper border (prefix that is also a suffix) of p[0..j).
//
// O(m) preprocessing (time and memory), at most 2n - m byte comparisons: linear in the worst case,
// also with overlapping matches everywhere (after a match the scan continues from the border of the
// whole pattern). Answers every m >= 1 directly.
//
// Two standard refinements, neither changes the result:
// - the "strong" failure function (Knuth's next[]): when p[border] == p[j] the mismatching byte
//   would mismatch again, so next[j] skips straight to next[border];
// - in state 0 (nothing matched) the scan jumps to the next byte equal to p[0] with memchr instead of
//   failing byte by byte; state 0 on a byte other than p[0] leads to state 0 on the next byte anyway.
#include <cstddef>
#include <cstring>
#include <vector>

#include "common/matchers/matcher_detail.hpp"

namespace cudamatch::detail {

namespace {
class KmpMatcher final : public ScanMatcher<KmpMatcher> {
 public:
  explicit KmpMatcher(ByteView pattern) : ScanMatcher(pattern), next_(pattern.size + 1) {
    const std::uint8_t* p = pattern.data;
    const std::ptrdiff_t m = static_cast<std::ptrdiff_t>(pattern.size);
    // next_[i]: the state to fall back to after a mismatch in state i (-1: give up on this text byte);
    // next_[m]: the state after a full match, the longest proper border of the whole pattern.
    std::ptrdiff_t i = 0;
    std::ptrdiff_t j = -1;
    next_[0] = -1;
    while (i < m) {
      while (j > -1 && p[i] != p[j]) j = next_[static_cast<std::size_t>(j)];
      ++i;
      ++j;
      next_[static_cast<std::size_t>(i)] = (i < m && p[i] == p[j]) ? next_[static_cast<std::size_t>(j)] : j;
    }
  }

  template <class OnMatch>
  void scan(const std::uint8_t* t, std::size_t n, OnMatch on_match) const {
    const std::uint8_t* p = pattern().data();
    const std::ptrdiff_t m = static_cast<std::ptrdiff_t>(pattern().size());
    const std::ptrdiff_t* next = next_.data();
    std::ptrdiff_t state = 0;  // pattern bytes matched so far
    std::size_t i = 0;         // next text byte
    while (i < n) {
      if (state == 0) {
        const void* hit = std::memchr(t + i, p[0], n - i);
        if (hit == nullptr) return;
        i = static_cast<std::size_t>(static_cast<const std::uint8_t*>(hit) - t);
      }
      const std::uint8_t c = t[i];
      while (state > -1 && p[state] != c) state = next[state];
      ++state;
      ++i;
      if (state == m) {
        on_match(i - static_cast<std::size_t>(m));
        state = next[m];
      }
    }
  }

 private:
  std::vector<std::ptrdiff_t> next_;
};
}  // namespace

std::unique_ptr<CpuMatcher> make_kmp_matcher(ByteView pattern) {
  return std::make_unique<KmpMatcher>(pattern);  // CpuMatcher refuses an empty pattern
}

}  // namespace cudamatch::detail
