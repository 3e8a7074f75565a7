// Sunday's Quick Search: compare the window (in any order), then shift on the byte just after it,
// t[s+m]: that byte must take part in the next window that can match, so it is aligned with its last
// occurrence in the pattern (shift m - last position), or jumped over (shift m + 1) when the pattern
// does not contain it. One 256-entry table, O(m + 256) preprocessing.
//
// O(n m) in the worst case, about n/(m+1) windows on typical text with a large alphabet. Answers every
// m >= 1 directly.
//
// Trap avoided: the window at the last alignment s = n - m has no byte after it; the scan stops there
// instead of reading t[n] (past the end of the text).
//
// Speed: a window is checked by its last byte, then its first, then memcmp of the rest.
#include <array>
#include <cstring>

#include "common/matchers/matcher_detail.hpp"

namespace cudamatch::detail {

namespace {
class SundayMatcher final : public ScanMatcher<SundayMatcher> {
 public:
  explicit SundayMatcher(ByteView pattern) : ScanMatcher(pattern) {
    const std::size_t m = pattern.size;
    shift_.fill(m + 1);
    for (std::size_t i = 0; i < m; ++i) shift_[pattern.data[i]] = m - i;
  }

  template <class OnMatch>
  void scan(const std::uint8_t* t, std::size_t n, OnMatch on_match) const {
    const std::uint8_t* p = pattern().data();
    const std::size_t m = pattern().size();
    const std::size_t last = n - m;
    const std::uint8_t p_first = p[0];
    const std::uint8_t p_last = p[m - 1];
    std::size_t s = 0;
    for (;;) {
      if (t[s + m - 1] == p_last && t[s] == p_first && (m <= 2 || std::memcmp(t + s + 1, p + 1, m - 2) == 0)) {
        on_match(s);
      }
      if (s >= last) return;  // no byte after the last window
      s += shift_[t[s + m]];
      if (s > last) return;  // a shift may jump past the last alignment
    }
  }

 private:
  std::array<std::size_t, 256> shift_{};
};
}  // namespace

std::unique_ptr<CpuMatcher> make_sunday_matcher(ByteView pattern) { return std::make_unique<SundayMatcher>(pattern); }

}  // namespace cudamatch::detail
