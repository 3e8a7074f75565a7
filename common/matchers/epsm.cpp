// EPSM-alpha (Faro and Külekci, "Fast packed string matching for short patterns", ALENEX 2013):
// packed comparison of many text bytes at once against each pattern byte.
//
// For a pattern byte p[j], one SSE byte comparison of 16 text bytes against p[j] broadcast to all 16
// lanes, then _mm_movemask_epi8, gives a 16-bit mask "text byte q equals p[j]". Shifting the mask of
// p[j] right by j lines up, at bit q, the comparison of t[q+j] with p[j]; the AND over j = 0..m-1 has bit
// q set exactly when the pattern occurs at q. The number of matches of a step is the popcount of that
// word, and the offsets are its set bits.
//
// This implementation works on 64 alignments per step: the masks of 4 x 16 text bytes are joined into
// one 64-bit word, and the 16 bytes after them supply the bits that the shift by j brings in. The text
// bytes are loaded once per step; the AND stops when the word is zero (tested after every fourth
// pattern byte: on text it is then almost always zero). Cost: O(n/64 * min(m,16)) word operations,
// at most 4 pattern bytes per step on typical text; O(m) preprocessing.
//
// Lengths:
// - m <= 16: the published algorithm: the packed comparison covers the whole pattern, so every bit
//   left in the word is an occurrence (no verification; count() is a popcount).
// - m > 16 (extension): the packed comparison of the first 16 pattern bytes is a filter; each
//   surviving alignment is verified by memcmp of the remaining m - 16 bytes. False positives need 16
//   equal bytes, so verification is rare except on periodic text, where the worst case is O(n m) like
//   brute force.
//
// Traps avoided:
// - reading past the end of the text: a step reads 80 bytes; when fewer than 80 are left, they are
//   copied into a zero-padded local window, and alignments past n - m are masked off, so padding
//   never creates a match (and a pattern containing NUL cannot match the padding);
// - reading before the text: there is no backward read (a text shorter than 16 bytes is all padding
//   window);
// - the occurrence that ends at the last text byte is the alignment n - m, which the last step
//   (normal or padded) always covers, whatever m and n are modulo 8 or 16.
//
// Fallback: on CPUs without SSE4.2/POPCNT (checked at run time) and on other architectures, the same
// scan runs with portable scalar code building the masks (PortableEpsmPolicy).
#include "common/matchers/epsm_kernel.hpp"
#include "common/matchers/matcher_detail.hpp"

namespace cudamatch::detail {

std::uint64_t epsm_search(bool simd, const std::uint8_t* p, std::size_t m, const std::uint8_t* t, std::size_t n,
                          std::uint64_t base, MatchSink sink) {
#if CUDAMATCH_MATCHERS_X86
  if (simd && simd_supported()) return epsm_search_sse(p, m, t, n, base, sink);
#else
  (void)simd;
#endif
  return epsm_kernel<PortableEpsmPolicy>(p, m, t, n, base, sink);
}

namespace {
class EpsmMatcher final : public CpuMatcher {
 public:
  EpsmMatcher(ByteView pattern, bool simd) : CpuMatcher(pattern), simd_(simd) {}

  void find_all(ByteView text, std::uint64_t base, std::vector<std::uint64_t>& out) const override {
    epsm_search(simd_, pattern().data(), pattern().size(), text.data, text.size, base, vector_sink(out));
  }

  std::uint64_t count(ByteView text) const override {
    return epsm_search(simd_, pattern().data(), pattern().size(), text.data, text.size, 0, MatchSink{});
  }

 private:
  bool simd_;
};
}  // namespace

std::unique_ptr<CpuMatcher> make_epsm_matcher(ByteView pattern, bool simd) {
  return std::make_unique<EpsmMatcher>(pattern, simd && simd_supported());
}

}  // namespace cudamatch::detail
