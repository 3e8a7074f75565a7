#include "common/rotated_text.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "common/matchers/cpu_matcher.hpp"

namespace cudamatch {

std::vector<std::uint8_t> cyclic_bytes(ByteView corpus, std::size_t offset, std::size_t size) {
  std::vector<std::uint8_t> bytes(size);
  if (size == 0) return bytes;
  if (corpus.size == 0) throw std::invalid_argument("cyclic_bytes: the corpus is empty");
  std::size_t j = offset % corpus.size;
  for (std::size_t at = 0; at < size;) {
    const std::size_t run = std::min(corpus.size - j, size - at);  // up to the end of the corpus
    std::copy_n(corpus.data + j, run, bytes.begin() + static_cast<std::ptrdiff_t>(at));
    at += run;
    j = 0;
  }
  return bytes;
}

CyclicOccurrences::CyclicOccurrences(ByteView corpus, ByteView pattern)
    : period_(corpus.size), pattern_size_(pattern.size) {
  if (pattern.size == 0) throw EmptyPatternError();
  if (corpus.size == 0) throw std::invalid_argument("CyclicOccurrences: the corpus is empty");
  // Every window that starts in [0, L) lies in the first L + m - 1 bytes of the cyclic corpus.
  const std::vector<std::uint8_t> extended = cyclic_bytes(corpus, 0, corpus.size + pattern.size - 1);
  const Algorithm fastest = pattern.size < 16 ? Algorithm::epsm : Algorithm::ssef;
  make_cpu_matcher(fastest, pattern)->find_all(extended, 0, offsets_);
}

std::uint64_t CyclicOccurrences::count_between(std::uint64_t begin, std::uint64_t end) const {
  return static_cast<std::uint64_t>(std::lower_bound(offsets_.begin(), offsets_.end(), end) -
                                    std::lower_bound(offsets_.begin(), offsets_.end(), begin));
}

std::uint64_t CyclicOccurrences::count_in_rotation(std::size_t offset, std::size_t size) const {
  if (size < pattern_size_) return 0;
  const std::uint64_t windows = size - pattern_size_ + 1;  // text offsets i in [0, N - m]
  const std::uint64_t start = offset % period_;
  const std::uint64_t rest = windows % period_;  // after the full periods, the cyclic range [start, start + rest)
  std::uint64_t count = windows / period_ * offsets_.size();
  if (start + rest <= period_) return count + count_between(start, start + rest);
  return count + count_between(start, period_) + count_between(0, start + rest - period_);
}

std::vector<ByteEdit> breaking_edits(ByteView corpus, const CyclicOccurrences& occurrences, ByteView pattern,
                                     std::size_t offset, std::size_t size, std::size_t count, Rng& rng) {
  std::vector<ByteEdit> edits;
  const std::vector<std::uint64_t>& cyclic = occurrences.offsets();
  const std::uint64_t period = corpus.size, m = pattern.size;
  if (cyclic.empty() || size < m) return edits;
  for (std::size_t attempt = 0; attempt < 4 * count && edits.size() < count; ++attempt) {
    // The text offsets of cyclic occurrence j are i0, i0 + L, i0 + 2L, ... up to size - m.
    const std::uint64_t j = cyclic[rng.below(cyclic.size())];
    const std::uint64_t i0 = (j + period - offset % period) % period;
    if (i0 > size - m) continue;
    const std::uint64_t i = i0 + period * rng.below((size - m - i0) / period + 1);
    const std::uint64_t k = rng.below(m);
    const ByteEdit edit{i + k, static_cast<std::uint8_t>(pattern.data[k] ^ (1 + rng.below(255)))};
    if (std::none_of(edits.begin(), edits.end(), [&](const ByteEdit& e) { return e.at == edit.at; })) {
      edits.push_back(edit);
    }
  }
  return edits;
}

std::uint64_t count_after_edits(ByteView corpus, const CyclicOccurrences& occurrences, ByteView pattern,
                                std::size_t offset, std::size_t size, std::vector<ByteEdit> edits) {
  std::uint64_t count = occurrences.count_in_rotation(offset, size);
  const std::uint64_t m = pattern.size;
  if (size < m || edits.empty()) return count;
  std::sort(edits.begin(), edits.end(), [](const ByteEdit& a, const ByteEdit& b) { return a.at < b.at; });
  const auto matches = [&](const std::vector<std::uint8_t>& bytes, std::uint64_t first, std::uint64_t last) {
    std::uint64_t found = 0;  // windows starting at first..last of `bytes`, which begins at text offset first
    for (std::uint64_t s = first; s <= last; ++s)
      found += std::memcmp(bytes.data() + (s - first), pattern.data, m) == 0;
    return found;
  };
  // The windows an edit at p touches start in [p - m + 1, p] (within [0, size - m]); overlapping
  // ranges are recounted together.
  for (std::size_t e = 0; e < edits.size();) {
    const std::uint64_t first = edits[e].at + 1 >= m ? edits[e].at + 1 - m : 0;
    std::uint64_t last = std::min<std::uint64_t>(edits[e].at, size - m);
    std::size_t end = e + 1;
    while (end < edits.size() && edits[end].at + 1 - std::min<std::uint64_t>(edits[end].at + 1, m) <= last + 1) {
      last = std::min<std::uint64_t>(edits[end].at, size - m);
      ++end;
    }
    if (first <= last) {
      std::vector<std::uint8_t> bytes = cyclic_bytes(corpus, offset + first, last - first + m);
      const std::uint64_t before = matches(bytes, first, last);
      for (std::size_t k = e; k < end; ++k) {
        if (edits[k].at - first < bytes.size()) bytes[edits[k].at - first] = edits[k].value;
      }
      count = count - before + matches(bytes, first, last);
    }
    e = end;
  }
  return count;
}

}  // namespace cudamatch
