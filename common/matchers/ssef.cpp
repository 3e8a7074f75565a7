// SSEF (Külekci, "Filter based fast matching of long patterns by using SIMD instructions", PSC 2009):
// filter on fingerprints of aligned text blocks, then verify.
//
// The text is cut into 16-byte blocks aligned to its start. Any occurrence of a pattern of length
// m >= 31 contains at least L = floor((m - 15) / 16) whole blocks, so looking at every L-th block is
// enough to meet every occurrence. A block's fingerprint is one bit of each of its 16 bytes, 16 bits
// gathered by one shift and one _mm_movemask_epi8. Preprocessing puts each offset r in [0, 16 L) of
// the pattern into the bucket of the fingerprint of p[r .. r+16): a table of 65536 buckets, stored
// compactly as a 65536-bit "bucket not empty" bitmap, a rank directory and the non-empty buckets
// (12 KiB plus the entries, so it stays in L1 and a matcher is cheap to build). The scan fingerprints
// every L-th text block, at offset o, and verifies (memcmp) the alignments o - r for the r of its
// bucket. Since only r < 16 L is stored, each occurrence is found from exactly one block, the first
// examined block inside it. Buckets hold r in decreasing order, so occurrences come out in increasing
// order without a sort.
//
// Cost: O(m + 65536/64) preprocessing. The scan reads one block in L, n/(16 L) fingerprints (about
// 16 n / m text bytes for large m); a block whose fingerprint is spread like a random 16-bit value
// hits a non-empty bucket with probability at most 16 L / 65536. Worst case O(n m) (periodic text
// and pattern: every candidate verifies).
//
// The fingerprint bit (trap of public implementations): a fixed bit 7, what movemask reads without a
// shift, is 0 in every ASCII byte, so all English or DNA blocks share one fingerprint and the filter
// passes every block. Here the bit is chosen from the pattern: the position whose 0/1 split over the
// pattern bytes is the most even (ssef_fingerprint_bit, ssef.hpp). For DNA "acgt" that is bit 1 or
// 2, which split the bases 2:2; for English text a low bit.
//
// Lengths (extension; the published SSEF needs m >= 32). The construction works for any block size B
// with L = floor((m - B + 1) / B) >= 1, i.e. m >= 2B - 1. Shorter patterns use shorter blocks with more
// bits per byte, so that the fingerprint stays 16 bits and the table 65536 buckets:
//   m >= 31: B = 16, 1 bit per byte (the published algorithm; this bound is 1 below the paper's 32);
//   15 <= m <= 30: B = 8, 2 bits per byte;  7 <= m <= 14: B = 4, 4 bits per byte;
//   3 <= m <= 6: B = 2, all 8 bits (the fingerprint is the two bytes);
//   m <= 2 (fallback): EPSM (epsm.cpp), the packed matcher for very short patterns.
// The bits for B < 16 are chosen greedily, each maximizing the entropy of the joint code of the chosen
// bits over the pattern bytes (ssef_fingerprint_bits).
//
// Traps avoided: a fingerprint reads exactly the B bytes of its block (8- and 4-byte blocks are loaded
// with 8- and 4-byte loads), and only blocks that lie wholly inside the text are examined; the
// occurrence that ends at the last text byte contains such a block (the first examined one at or after
// its start ends at most at its end), whatever n modulo 16 is. Nothing is read before the text.
//
// Fallback: without SSE4.2/POPCNT (checked at run time) or off x86-64, the same scan runs with a
// portable scalar fingerprint of the same definition.
#include "common/matchers/ssef.hpp"

#include <cmath>
#include <vector>

#include "common/matchers/matcher_detail.hpp"
#include "common/matchers/ssef_kernel.hpp"

namespace cudamatch {

namespace {
// The entropy (bits) of the code (byte & mask) over the pattern bytes.
double code_entropy(ByteView pattern, unsigned mask) {
  std::vector<std::size_t> histogram(256, 0);
  for (std::size_t i = 0; i < pattern.size; ++i) ++histogram[pattern.data[i] & mask];
  double entropy = 0;
  for (std::size_t c : histogram) {
    if (c == 0) continue;
    const double p = static_cast<double>(c) / static_cast<double>(pattern.size);
    entropy -= p * std::log2(p);
  }
  return entropy;
}
}  // namespace

std::vector<int> ssef_fingerprint_bits(ByteView pattern, int count) {
  if (count < 1 || count > 8) throw std::invalid_argument("ssef_fingerprint_bits: count must be 1..8");
  std::vector<int> bits;
  unsigned chosen = 0;
  for (int round = 0; round < count; ++round) {
    int best = -1;
    double best_entropy = -1;
    for (int b = 0; b < 8; ++b) {
      if ((chosen >> b) & 1u) continue;
      const double entropy = pattern.size == 0 ? 0.0 : code_entropy(pattern, chosen | (1u << b));
      if (entropy > best_entropy + 1e-12) {  // the lowest bit wins a tie
        best = b;
        best_entropy = entropy;
      }
    }
    bits.push_back(best);
    chosen |= 1u << best;
  }
  return bits;
}

int ssef_fingerprint_bit(ByteView pattern) {
  // The most even split is the split of largest entropy.
  return ssef_fingerprint_bits(pattern, 1).front();
}

namespace detail {

namespace {

template <std::size_t B>
std::uint64_t portable_scan(const SsefPlan& plan, const std::uint8_t* t, std::size_t n, std::uint64_t base,
                            MatchSink sink) {
  const PortableSsefFingerprint<B> fingerprint(plan);
  return ssef_scan(plan, fingerprint, t, n, base, sink);
}

std::uint32_t portable_fingerprint(const SsefPlan& plan, const std::uint8_t* x) {
  switch (plan.block) {
    case 16:
      return ssef_portable_fingerprint<16>(x, plan.bits);
    case 8:
      return ssef_portable_fingerprint<8>(x, plan.bits);
    case 4:
      return ssef_portable_fingerprint<4>(x, plan.bits);
    default:
      return ssef_portable_fingerprint<2>(x, plan.bits);
  }
}

class SsefMatcher final : public CpuMatcher {
 public:
  SsefMatcher(ByteView pattern, bool simd) : CpuMatcher(pattern), simd_(simd) {
    const std::size_t m = pattern.size;
    plan_.pattern = this->pattern().data();
    plan_.m = m;
    if (m < 3) return;  // EPSM (see search())
    plan_.block = m >= 31 ? 16 : m >= 15 ? 8 : m >= 7 ? 4 : 2;
    plan_.stride = (m - plan_.block + 1) / plan_.block;
    const int bits_per_byte = static_cast<int>(16 / plan_.block);
    const std::vector<int> bits = ssef_fingerprint_bits(pattern, bits_per_byte);
    for (int u = 0; u < bits_per_byte; ++u) plan_.bits[u] = static_cast<unsigned>(bits[static_cast<std::size_t>(u)]);

    // Every pattern offset r < B L goes to the bucket of the fingerprint of p[r .. r+B).
    const std::size_t entries = plan_.block * plan_.stride;
    bitmap_.assign(kSsefBuckets / 64, 0);
    rank_.assign(kSsefBuckets / 64, 0);
    offsets_.resize(entries);
    std::vector<std::uint32_t> bucket(entries);
    for (std::size_t r = 0; r < entries; ++r) {
      const std::uint32_t f = portable_fingerprint(plan_, pattern.data + r);
      bucket[r] = f;
      bitmap_[f >> 6] |= std::uint64_t{1} << (f & 63);
    }
    std::uint32_t buckets = 0;
    for (std::size_t w = 0; w < bitmap_.size(); ++w) {
      rank_[w] = buckets;
      buckets += static_cast<std::uint32_t>(__builtin_popcountll(bitmap_[w]));
    }
    // starts_[k] counts the entries of the k-th bucket, then accumulates to its end, then (filled from
    // the back with increasing r, so that each bucket holds decreasing r) drops to its start.
    starts_.assign(buckets + 1, 0);
    for (std::size_t r = 0; r < entries; ++r) {
      const std::uint32_t f = bucket[r];
      const std::uint64_t below = (std::uint64_t{2} << (f & 63)) - 1;
      bucket[r] = rank_[f >> 6] + static_cast<std::uint32_t>(__builtin_popcountll(bitmap_[f >> 6] & below)) - 1;
      ++starts_[bucket[r]];
    }
    for (std::size_t k = 1; k < buckets; ++k) starts_[k] += starts_[k - 1];
    starts_[buckets] = static_cast<std::uint32_t>(entries);
    for (std::size_t r = 0; r < entries; ++r) offsets_[--starts_[bucket[r]]] = static_cast<std::uint32_t>(r);
    plan_.bitmap = bitmap_.data();
    plan_.rank = rank_.data();
    plan_.starts = starts_.data();
    plan_.offsets = offsets_.data();
  }

  void find_all(ByteView text, std::uint64_t base, std::vector<std::uint64_t>& out) const override {
    search(text, base, vector_sink(out));
  }

  std::uint64_t count(ByteView text) const override { return search(text, 0, MatchSink{}); }

 private:
  std::uint64_t search(ByteView text, std::uint64_t base, MatchSink sink) const {
    if (plan_.m < 3) return epsm_search(simd_, plan_.pattern, plan_.m, text.data, text.size, base, sink);
#if CUDAMATCH_MATCHERS_X86
    if (simd_) return ssef_search_sse(plan_, text.data, text.size, base, sink);
#endif
    switch (plan_.block) {
      case 16:
        return portable_scan<16>(plan_, text.data, text.size, base, sink);
      case 8:
        return portable_scan<8>(plan_, text.data, text.size, base, sink);
      case 4:
        return portable_scan<4>(plan_, text.data, text.size, base, sink);
      default:
        return portable_scan<2>(plan_, text.data, text.size, base, sink);
    }
  }

  bool simd_;
  SsefPlan plan_;
  std::vector<std::uint64_t> bitmap_;
  std::vector<std::uint32_t> rank_;
  std::vector<std::uint32_t> starts_;
  std::vector<std::uint32_t> offsets_;
};

}  // namespace

std::unique_ptr<CpuMatcher> make_ssef_matcher(ByteView pattern, bool simd) {
  return std::make_unique<SsefMatcher>(pattern, simd && simd_supported());
}

}  // namespace detail
}  // namespace cudamatch
