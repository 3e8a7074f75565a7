// Brute force: try every alignment s = 0..n-m and compare the window with the pattern.
//
// O(n m) time in the worst case (all-'a' text and pattern: every window matches after m
// comparisons), O(n) expected on random text; O(1) preprocessing, no extra memory. Answers every
// m >= 1 directly.
//
// The serial baseline skips to the next alignment whose first byte is p[0] with memchr (vectorized in
// glibc), then compares the remaining m-1 bytes with memcmp. This examines the same alignments as the
// textbook loop; it only does the "first byte differs" rejections many at a time.
#include <cstring>

#include "common/matchers/matcher_detail.hpp"

namespace cudamatch::detail {

namespace {
class BruteForceMatcher final : public ScanMatcher<BruteForceMatcher> {
 public:
  explicit BruteForceMatcher(ByteView pattern) : ScanMatcher(pattern) {}

  template <class OnMatch>
  void scan(const std::uint8_t* t, std::size_t n, OnMatch on_match) const {
    const std::uint8_t* p = pattern().data();
    const std::size_t m = pattern().size();
    const std::size_t last = n - m;
    std::size_t s = 0;
    while (s <= last) {
      const void* hit = std::memchr(t + s, p[0], last - s + 1);
      if (hit == nullptr) return;
      s = static_cast<std::size_t>(static_cast<const std::uint8_t*>(hit) - t);
      if (m == 1 || std::memcmp(t + s + 1, p + 1, m - 1) == 0) on_match(s);
      ++s;
    }
  }
};
}  // namespace

std::unique_ptr<CpuMatcher> make_bf_matcher(ByteView pattern) { return std::make_unique<BruteForceMatcher>(pattern); }

}  // namespace cudamatch::detail
