// The SSE fingerprints of SSEF (ssef_kernel.hpp). Compiled with -msse4.2 -mpopcnt
// (common/matchers/sources.cmake); called only when the CPU has both (detail::simd_supported()).
// Only plain functions and anonymous-namespace code live here, no C++ library templates (see
// kernel_support.hpp).
#include "common/matchers/ssef_kernel.hpp"

#if CUDAMATCH_MATCHERS_X86
#include <immintrin.h>

namespace cudamatch::detail {

namespace {

// Shifting each 64-bit lane left by 7 - b moves bit b of every byte to that byte's bit 7 (the bits that
// cross into a byte come from below its own bit b), where _mm_movemask_epi8 collects it.
inline std::uint32_t bit_mask(__m128i v, __m128i shift) {
  return static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_sll_epi64(v, shift)));
}

template <std::size_t B>
class SseSsefFingerprint {
 public:
  static constexpr std::size_t kBlock = B;
  static constexpr std::size_t kBits = 16 / B;

  explicit SseSsefFingerprint(const SsefPlan& plan) {
    for (std::size_t u = 0; u < kBits; ++u) shift_[u] = _mm_cvtsi32_si128(static_cast<int>(7 - plan.bits[u]));
  }

  // Reads exactly B bytes (a 16-byte load, or an 8- or 4-byte load into the low lanes with zeros above,
  // whose mask bits are then 0).
  std::uint32_t operator()(const std::uint8_t* x) const {
    if constexpr (B == 16) {
      return bit_mask(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x)), shift_[0]);
    } else {
      __m128i v;
      if constexpr (B == 8) {
        v = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(x));
      } else {
        static_assert(B == 4, "SSE fingerprints cover blocks of 16, 8 and 4 bytes");
        std::uint32_t word;
        std::memcpy(&word, x, sizeof word);
        v = _mm_cvtsi32_si128(static_cast<int>(word));
      }
      std::uint32_t fp = 0;
      for (std::size_t u = 0; u < kBits; ++u) fp |= bit_mask(v, shift_[u]) << (u * B);
      return fp;
    }
  }

 private:
  __m128i shift_[kBits];
};

template <class Fingerprint>
std::uint64_t scan_with(const SsefPlan& plan, const std::uint8_t* t, std::size_t n, std::uint64_t base,
                        MatchSink sink) {
  const Fingerprint fingerprint(plan);
  return ssef_scan(plan, fingerprint, t, n, base, sink);
}

}  // namespace

std::uint64_t ssef_search_sse(const SsefPlan& plan, const std::uint8_t* t, std::size_t n, std::uint64_t base,
                              MatchSink sink) {
  switch (plan.block) {
    case 16:
      return scan_with<SseSsefFingerprint<16>>(plan, t, n, base, sink);
    case 8:
      return scan_with<SseSsefFingerprint<8>>(plan, t, n, base, sink);
    case 4:
      return scan_with<SseSsefFingerprint<4>>(plan, t, n, base, sink);
    default:
      return scan_with<PortableSsefFingerprint<2>>(plan, t, n, base, sink);  // two whole bytes
  }
}

}  // namespace cudamatch::detail
#endif
