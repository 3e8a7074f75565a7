// The SSEF scan, written once for any block fingerprint function: the SSE ones (ssef_sse.cpp, compiled
// with -msse4.2 -mpopcnt) and the portable one (ssef.cpp). See ssef.cpp for the algorithm and its
// extension to short patterns. Internal; like kernel_support.hpp it uses no C++ library template.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "common/matchers/kernel_support.hpp"

namespace cudamatch::detail {

constexpr std::size_t kSsefBuckets = 65536;  // 16-bit fingerprints

// A preprocessed pattern (the tables live in the matcher; these are views of them).
struct SsefPlan {
  const std::uint8_t* pattern = nullptr;
  std::size_t m = 0;
  std::size_t block = 16;  // B: bytes per block, 16, 8, 4 or 2
  std::size_t stride = 1;  // L: every L-th block of the text is fingerprinted
  unsigned bits[8] = {};   // the 16/B bit positions a fingerprint takes from each byte
  // The 65536 buckets, stored compactly (12 KiB and the entries instead of a 256 KiB array of bucket
  // starts, so that building a matcher is cheap and the table stays in L1): bucket f is empty unless
  // bit f of `bitmap` is set; then it is the k-th non-empty bucket, k = rank[f / 64] + the set bits
  // of its bitmap word below f, and holds offsets[starts[k] .. starts[k+1]).
  const std::uint64_t* bitmap = nullptr;   // kSsefBuckets / 64 words
  const std::uint32_t* rank = nullptr;     // kSsefBuckets / 64: set bits in the words before
  const std::uint32_t* starts = nullptr;   // non-empty buckets + 1
  const std::uint32_t* offsets = nullptr;  // where a block may sit in the pattern, decreasing per bucket
};

// The SSE4.2 scan (defined in ssef_sse.cpp, x86-64 only; call it only when simd_supported()).
std::uint64_t ssef_search_sse(const SsefPlan& plan, const std::uint8_t* t, std::size_t n, std::uint64_t base,
                              MatchSink sink);

namespace {

// The fingerprint of the B bytes at x: bit (u * B + q) is bit bits[u] of x[q], u < 16/B, q < B. For
// B = 2 all 8 bits of both bytes are taken, which is the two bytes themselves (x[0] | x[1] << 8).
// This is the definition; the SSE fingerprints in ssef_sse.cpp compute the same values.
template <std::size_t B>
std::uint32_t ssef_portable_fingerprint(const std::uint8_t* x, const unsigned* bits) {
  if constexpr (B == 2) {
    return static_cast<std::uint32_t>(x[0]) | (static_cast<std::uint32_t>(x[1]) << 8);
  } else {
    constexpr std::size_t kBits = 16 / B;
    std::uint32_t fp = 0;
    for (std::size_t u = 0; u < kBits; ++u) {
      for (std::size_t q = 0; q < B; ++q) fp |= ((static_cast<std::uint32_t>(x[q]) >> bits[u]) & 1u) << (u * B + q);
    }
    return fp;
  }
}

template <std::size_t B>
struct PortableSsefFingerprint {
  static constexpr std::size_t kBlock = B;
  explicit PortableSsefFingerprint(const SsefPlan& plan) : bits_(plan.bits) {}
  std::uint32_t operator()(const std::uint8_t* x) const { return ssef_portable_fingerprint<B>(x, bits_); }
  const unsigned* bits_;
};

// Fingerprints every L-th block of B bytes (blocks aligned to the text's start), looks the fingerprint
// up, and verifies each pattern offset r of the bucket as the occurrence at block offset - r. A
// Fingerprint reads exactly the B bytes of its block.
template <class Fingerprint>
std::uint64_t ssef_scan(const SsefPlan& plan, const Fingerprint& fingerprint, const std::uint8_t* t, std::size_t n,
                        std::uint64_t base, MatchSink sink) {
  const std::size_t m = plan.m;
  if (m > n) return 0;
  constexpr std::size_t B = Fingerprint::kBlock;
  const std::size_t step = B * plan.stride;
  const std::size_t last = n - m;  // the last alignment
  // The last block to fingerprint: it must lie in the text (m >= B, so n >= B), and blocks after
  // last + step - 1 could only find occurrences starting after `last`.
  std::size_t end = n - B;
  if (last + step - 1 < end) end = last + step - 1;
  Emitter out(sink, base);
  for (std::size_t o = 0; o <= end; o += step) {
    const std::uint32_t f = fingerprint(t + o);
    const std::uint64_t word = plan.bitmap[f >> 6];
    const std::uint64_t below = (std::uint64_t{2} << (f & 63)) - 1;  // bits 0..f%64 of the word
    if (((word >> (f & 63)) & 1u) == 0) continue;
    const std::uint32_t k = plan.rank[f >> 6] + static_cast<std::uint32_t>(__builtin_popcountll(word & below)) - 1;
    for (std::uint32_t e = plan.starts[k]; e < plan.starts[k + 1]; ++e) {
      const std::size_t r = plan.offsets[e];
      if (r > o) continue;  // would start before the text
      const std::size_t s = o - r;
      if (s > last) break;  // the bucket's later entries start later still
      if (std::memcmp(t + s, plan.pattern, m) == 0) out.add(s);
    }
  }
  return out.finish();
}

}  // namespace
}  // namespace cudamatch::detail
