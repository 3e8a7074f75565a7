// The SSE instantiation of the EPSM-alpha scan (epsm_kernel.hpp). Compiled with -msse4.2 -mpopcnt
// (common/matchers/sources.cmake); called only when the CPU has both (detail::simd_supported()).
// Only plain functions and the anonymous-namespace kernel live here, no C++ library templates (see
// kernel_support.hpp).
#include "common/matchers/epsm_kernel.hpp"

#if CUDAMATCH_MATCHERS_X86
#include <immintrin.h>

namespace cudamatch::detail {

namespace {
struct SseEpsmPolicy {
  using Byte = __m128i;
  static Byte broadcast(std::uint8_t c) { return _mm_set1_epi8(static_cast<char>(c)); }

  // The 80 bytes of a step in five registers; each comparison is a byte compare + movemask per 16.
  class Window {
   public:
    explicit Window(const std::uint8_t* w)
        : v0_(load(w)), v1_(load(w + 16)), v2_(load(w + 32)), v3_(load(w + 48)), v4_(load(w + 64)) {}

    std::uint64_t eq64(Byte c) const {
      const std::uint64_t m0 = mask(v0_, c);
      const std::uint64_t m1 = mask(v1_, c);
      const std::uint64_t m2 = mask(v2_, c);
      const std::uint64_t m3 = mask(v3_, c);
      return m0 | (m1 << 16) | (m2 << 32) | (m3 << 48);
    }
    std::uint32_t eq_high(Byte c) const { return mask(v4_, c); }

   private:
    static __m128i load(const std::uint8_t* x) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(x)); }
    static std::uint32_t mask(__m128i v, __m128i c) {
      return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, c)));
    }
    __m128i v0_, v1_, v2_, v3_, v4_;
  };
};
}  // namespace

std::uint64_t epsm_search_sse(const std::uint8_t* p, std::size_t m, const std::uint8_t* t, std::size_t n,
                              std::uint64_t base, MatchSink sink) {
  return epsm_kernel<SseEpsmPolicy>(p, m, t, n, base, sink);
}

}  // namespace cudamatch::detail
#endif
