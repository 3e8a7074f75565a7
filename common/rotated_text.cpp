#include "common/rotated_text.hpp"

#include <algorithm>
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

}  // namespace cudamatch
