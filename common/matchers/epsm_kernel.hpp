// The EPSM-alpha scan, written once for two "policies": SSE (epsm_sse.cpp, compiled with -msse4.2
// -mpopcnt) and portable scalar code (epsm.cpp). See epsm.cpp for the algorithm and its extension to
// m > 16. Internal; like kernel_support.hpp it uses no C++ library template (see there why).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/matchers/kernel_support.hpp"

namespace cudamatch::detail {

// The SSE4.2 instantiation (defined in epsm_sse.cpp, x86-64 only; call it only when simd_supported()).
std::uint64_t epsm_search_sse(const std::uint8_t* p, std::size_t m, const std::uint8_t* t, std::size_t n,
                              std::uint64_t base, MatchSink sink);

namespace {

constexpr std::size_t kEpsmFilter = 16;                       // pattern bytes compared packed
constexpr std::size_t kEpsmStep = 64;                         // alignments per step: one 64-bit mask
constexpr std::size_t kEpsmWindow = kEpsmStep + kEpsmFilter;  // text bytes one step reads

// A Policy provides
//   Policy::Byte                    a pattern byte in the form the comparisons want (broadcast);
//   Policy::broadcast(c)            -> Byte;
//   Policy::Window(w)               reads the kEpsmWindow bytes at w;
//   window.eq64(c)                  bit q (0..63) set iff w[q] == c;
//   window.eq_high(c)               bit q (0..15) set iff w[64 + q] == c.
template <class Policy>
std::uint64_t epsm_kernel(const std::uint8_t* p, std::size_t m, const std::uint8_t* t, std::size_t n,
                          std::uint64_t base, MatchSink sink) {
  if (m > n) return 0;
  const std::size_t k = m < kEpsmFilter ? m : kEpsmFilter;
  const std::size_t last = n - m;  // the last alignment
  typename Policy::Byte bytes[kEpsmFilter];
  for (std::size_t j = 0; j < k; ++j) bytes[j] = Policy::broadcast(p[j]);
  Emitter out(sink, base);

  // Alignments b .. b+63, whose text bytes are the window at w (w = t + b, or a padded copy).
  auto step = [&](const std::uint8_t* w, std::size_t b) {
    const typename Policy::Window window(w);
    // Bit q of d: t[b+q+j] == p[j] for every j tested so far. The mask of p[j] is shifted right by j
    // (its bits 64..64+j-1 come from the 16 bytes after the 64), then ANDed.
    // The test for an all-zero word costs a hard-to-predict branch, so it is made after every fourth
    // pattern byte only.
    std::uint64_t d = window.eq64(bytes[0]);
    for (std::size_t j = 1; j < k; ++j) {
      d &= (window.eq64(bytes[j]) >> j) | (static_cast<std::uint64_t>(window.eq_high(bytes[j])) << (kEpsmStep - j));
      if ((j & 3) == 3 && d == 0) break;
    }
    if (last - b < kEpsmStep - 1) d &= (std::uint64_t{2} << (last - b)) - 1;  // alignments past the last
    if (m <= kEpsmFilter) {
      out.add_mask(d, b);  // the filter compared the whole pattern: every bit is a match
    } else {
      while (d != 0) {  // verify the bytes after the first 16
        const std::size_t s = b + static_cast<std::size_t>(__builtin_ctzll(d));
        if (std::memcmp(t + s + kEpsmFilter, p + kEpsmFilter, m - kEpsmFilter) == 0) out.add(s);
        d &= d - 1;
      }
    }
  };

  std::size_t b = 0;
  while (b <= last && n - b >= kEpsmWindow) {
    step(t + b, b);
    b += kEpsmStep;
  }
  if (b <= last) {
    // Fewer than kEpsmWindow bytes are left: a step would read past the end of the text. Copy them
    // into a zero-padded window instead (at most two steps); the bytes after the text never decide a
    // match, since alignments past `last` are masked off above.
    std::uint8_t padded[kEpsmStep + kEpsmWindow] = {};
    std::memcpy(padded, t + b, n - b);
    for (std::size_t o = 0; b + o <= last; o += kEpsmStep) step(padded + o, b + o);
  }
  return out.finish();
}

// Scalar code with the same contract, for CPUs without SSE4.2 and other architectures.
struct PortableEpsmPolicy {
  using Byte = std::uint8_t;
  static Byte broadcast(std::uint8_t c) { return c; }

  class Window {
   public:
    explicit Window(const std::uint8_t* w) : w_(w) {}
    std::uint64_t eq64(Byte c) const {
      std::uint64_t mask = 0;
      for (std::size_t q = 0; q < kEpsmStep; ++q) mask |= static_cast<std::uint64_t>(w_[q] == c) << q;
      return mask;
    }
    std::uint32_t eq_high(Byte c) const {
      std::uint32_t mask = 0;
      for (std::size_t q = 0; q < kEpsmFilter; ++q) mask |= static_cast<std::uint32_t>(w_[kEpsmStep + q] == c) << q;
      return mask;
    }

   private:
    const std::uint8_t* w_;
  };
};

}  // namespace
}  // namespace cudamatch::detail
