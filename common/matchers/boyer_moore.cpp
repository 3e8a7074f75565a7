// Boyer-Moore: compare the window right to left; on a mismatch at pattern position i against text
// byte c, shift by the larger of
// - the bad-character rule: align c with its last occurrence in p[0..m-1) (a 256-entry table);
// - the good-suffix rule: align the matched suffix p[i+1..m) with its previous occurrence in the
//   pattern, or with the longest prefix of p that is a suffix of it (an m-entry table).
//
// O(m + 256) preprocessing. Sublinear on typical text (about n/m windows for large alphabets).
// Without more, reporting every overlapping occurrence costs O(n m) on periodic input (all-'a'), since
// each of the n-m+1 matches is verified from scratch. Galil's rule removes that: after a match the
// shift is the pattern's period per (= the good-suffix shift of position 0), and the first m - per
// bytes of the next window are then known to match, so only the last per bytes are compared. With it
// the all-'a' case is linear. Answers every m >= 1 directly.
//
// Speed: before the right-to-left comparison, a skip loop tests only the window's last byte and, while
// it differs from p[m-1], shifts by max(bad character, good suffix of position m-1) from one
// precomputed 256-entry table (the BM shift of a mismatch at i = m-1, so the skip loop is the same
// algorithm, just tighter code).
#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

#include "common/matchers/matcher_detail.hpp"

namespace cudamatch::detail {

namespace {
class BoyerMooreMatcher final : public ScanMatcher<BoyerMooreMatcher> {
 public:
  explicit BoyerMooreMatcher(ByteView pattern) : ScanMatcher(pattern), good_suffix_(pattern.size) {
    const std::uint8_t* p = pattern.data;
    const std::ptrdiff_t m = static_cast<std::ptrdiff_t>(pattern.size);

    // bad_char_[c] = m - 1 - (last position of c in p[0..m-1)), m when c does not occur there.
    bad_char_.fill(m);
    for (std::ptrdiff_t i = 0; i + 1 < m; ++i) bad_char_[p[i]] = m - 1 - i;

    // suffix[i]: the length of the longest common suffix of p[0..i] and p.
    std::vector<std::ptrdiff_t> suffix(pattern.size);
    suffix[static_cast<std::size_t>(m - 1)] = m;
    std::ptrdiff_t g = m - 1;
    std::ptrdiff_t f = m - 1;
    for (std::ptrdiff_t i = m - 2; i >= 0; --i) {
      if (i > g && suffix[static_cast<std::size_t>(i + m - 1 - f)] < i - g) {
        suffix[static_cast<std::size_t>(i)] = suffix[static_cast<std::size_t>(i + m - 1 - f)];
      } else {
        g = std::min(g, i);
        f = i;
        while (g >= 0 && p[g] == p[g + m - 1 - f]) --g;
        suffix[static_cast<std::size_t>(i)] = f - g;
      }
    }

    // good_suffix_[i]: the shift after a mismatch at i (p[i+1..m) matched).
    std::fill(good_suffix_.begin(), good_suffix_.end(), m);
    std::ptrdiff_t j = 0;
    for (std::ptrdiff_t i = m - 1; i >= 0; --i) {
      if (suffix[static_cast<std::size_t>(i)] == i + 1) {  // p[0..i] is a border of p
        for (; j < m - 1 - i; ++j) {
          if (good_suffix_[static_cast<std::size_t>(j)] == m) good_suffix_[static_cast<std::size_t>(j)] = m - 1 - i;
        }
      }
    }
    for (std::ptrdiff_t i = 0; i + 1 < m; ++i) {
      good_suffix_[static_cast<std::size_t>(m - 1 - suffix[static_cast<std::size_t>(i)])] = m - 1 - i;
    }

    const std::ptrdiff_t last_gs = good_suffix_[static_cast<std::size_t>(m - 1)];
    for (std::size_t c = 0; c < 256; ++c) skip_[c] = std::max(last_gs, bad_char_[c]);
  }

  template <class OnMatch>
  void scan(const std::uint8_t* t, std::size_t n, OnMatch on_match) const {
    const std::uint8_t* p = pattern().data();
    const std::ptrdiff_t m = static_cast<std::ptrdiff_t>(pattern().size());
    const std::ptrdiff_t last = static_cast<std::ptrdiff_t>(n) - m;  // the last alignment
    const std::ptrdiff_t period = good_suffix_[0];
    const std::uint8_t p_last = p[m - 1];
    std::ptrdiff_t s = 0;
    std::ptrdiff_t known = 0;  // Galil: p[0..known) is known to match the window at s
    while (s <= last) {
      if (known == 0) {
        std::uint8_t c = t[s + m - 1];
        while (c != p_last) {
          s += skip_[c];
          if (s > last) return;
          c = t[s + m - 1];
        }
      }
      // Without Galil's knowledge the skip loop has just checked the last byte.
      std::ptrdiff_t i = known == 0 ? m - 2 : m - 1;
      while (i >= known && p[i] == t[s + i]) --i;
      if (i < known) {
        on_match(static_cast<std::size_t>(s));
        s += period;
        known = m - period;
      } else {
        s += std::max(good_suffix_[static_cast<std::size_t>(i)], bad_char_[t[s + i]] - (m - 1 - i));
        known = 0;
      }
    }
  }

 private:
  std::array<std::ptrdiff_t, 256> bad_char_{};
  std::array<std::ptrdiff_t, 256> skip_{};
  std::vector<std::ptrdiff_t> good_suffix_;
};
}  // namespace

std::unique_ptr<CpuMatcher> make_bm_matcher(ByteView pattern) { return std::make_unique<BoyerMooreMatcher>(pattern); }

}  // namespace cudamatch::detail
