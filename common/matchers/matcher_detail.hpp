// Internal to common/matchers/ (and its tests): the factories of each algorithm, the run-time SIMD
// check, and the helper that turns one scan loop into both find_all and count.
#pragma once

#include <memory>
#include <vector>

#include "common/matchers/cpu_matcher.hpp"
#include "common/matchers/kernel_support.hpp"

namespace cudamatch::detail {

// True on x86-64 when the CPU has SSE4.2 and POPCNT (checked once, at run time): the condition for
// the packed kernels of epsm and ssef. Elsewhere, false.
bool simd_supported();

std::unique_ptr<CpuMatcher> make_bf_matcher(ByteView pattern);
std::unique_ptr<CpuMatcher> make_kmp_matcher(ByteView pattern);
std::unique_ptr<CpuMatcher> make_bm_matcher(ByteView pattern);
std::unique_ptr<CpuMatcher> make_sunday_matcher(ByteView pattern);
// `simd`: use the SSE4.2 kernel (only honoured when simd_supported()); false gives the portable
// version of the same algorithm, which is what a CPU without SSE4.2 runs (and what tests compare).
std::unique_ptr<CpuMatcher> make_epsm_matcher(ByteView pattern, bool simd);
std::unique_ptr<CpuMatcher> make_ssef_matcher(ByteView pattern, bool simd);

// The EPSM kernel on raw bytes (SSE4.2 when `simd` and simd_supported(), else portable): reports the
// occurrences of p[0..m) in t[0..n) through `sink` (offsets + base), returns their number. SSEF uses it
// for the pattern lengths its filter cannot take.
std::uint64_t epsm_search(bool simd, const std::uint8_t* p, std::size_t m, const std::uint8_t* t, std::size_t n,
                          std::uint64_t base, MatchSink sink);

// A MatchSink that appends to `out`.
inline MatchSink vector_sink(std::vector<std::uint64_t>& out) {
  MatchSink sink;
  sink.flush = [](void* context, const std::uint64_t* offsets, std::size_t count) {
    auto& v = *static_cast<std::vector<std::uint64_t>*>(context);
    v.insert(v.end(), offsets, offsets + count);
  };
  sink.context = &out;
  return sink;
}

// CpuMatcher for an algorithm written once as `template <class OnMatch> void scan(const std::uint8_t* t,
// std::size_t n, OnMatch on_match) const`, calling on_match(offset) for each occurrence in t[0..n) in
// increasing order. scan is only called when the pattern fits in the text (m <= n): a longer pattern
// has no occurrence. The callback is inlined: count() increments a counter, find_all() appends to the
// vector.
template <class Derived>
class ScanMatcher : public CpuMatcher {
 public:
  void find_all(ByteView text, std::uint64_t base, std::vector<std::uint64_t>& out) const override {
    scan_if_fits(text, [&](std::size_t offset) { out.push_back(base + offset); });
  }

  std::uint64_t count(ByteView text) const override {
    std::uint64_t n = 0;
    scan_if_fits(text, [&](std::size_t) { ++n; });
    return n;
  }

 protected:
  explicit ScanMatcher(ByteView pattern) : CpuMatcher(pattern) {}

 private:
  template <class OnMatch>
  void scan_if_fits(ByteView text, OnMatch on_match) const {
    if (pattern().size() > text.size) return;
    static_cast<const Derived&>(*this).scan(text.data, text.size, on_match);
  }
};

}  // namespace cudamatch::detail
