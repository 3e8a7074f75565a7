#include "dispatch.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "common/file_io.hpp"

namespace cudamatch::cli {

const char* alphabet_name(AlphabetClass alphabet) {
  switch (alphabet) {
    case AlphabetClass::small:
      return "small";
    case AlphabetClass::text:
      return "text";
    case AlphabetClass::wide:
      return "wide";
  }
  return "?";
}

std::vector<std::uint64_t> sample_offsets(std::uint64_t n) {
  if (n <= kSampleSlices * kSliceBytes) return {0};
  std::vector<std::uint64_t> offsets;
  for (std::uint64_t k = 0; k < kSampleSlices; ++k) offsets.push_back((n - kSliceBytes) * k / (kSampleSlices - 1));
  return offsets;
}

AlphabetSample classify_counts(const std::array<std::uint64_t, 256>& counts) {
  AlphabetSample result;
  std::uint64_t squares = 0;  // sum of counts^2: at most (16 * 4096)^2 for a sample
  for (std::uint64_t c : counts) {
    result.sampled += c;
    squares += c * c;
  }
  if (result.sampled == 0) return result;
  // effective letters = sampled^2 / squares, compared in integers so that the class is exact
  const std::uint64_t total_squared = result.sampled * result.sampled;
  result.effective_letters = static_cast<double>(total_squared) / static_cast<double>(squares);
  result.alphabet = total_squared <= kSmallAlphabetMax * squares  ? AlphabetClass::small
                    : total_squared <= kTextAlphabetMax * squares ? AlphabetClass::text
                                                                  : AlphabetClass::wide;
  return result;
}

AlphabetSample classify_alphabet(ByteView text) {
  std::array<std::uint64_t, 256> counts{};
  const bool whole = text.size <= kSampleSlices * kSliceBytes;
  for (std::uint64_t start : sample_offsets(text.size)) {
    const std::size_t stop = whole ? text.size : start + kSliceBytes;
    for (std::size_t i = start; i < stop; ++i) ++counts[text.data[i]];
  }
  return classify_counts(counts);
}

AlphabetSample classify_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw FileError(path + ": " + std::strerror(errno));
  const off_t size = ::lseek(fd, 0, SEEK_END);
  std::array<std::uint64_t, 256> counts{};
  std::vector<std::uint8_t> slice(kSampleSlices * kSliceBytes);
  const std::uint64_t n = size < 0 ? 0 : static_cast<std::uint64_t>(size);
  const std::size_t length = n <= slice.size() ? n : kSliceBytes;
  for (std::uint64_t start : sample_offsets(n)) {
    const ssize_t got = ::pread(fd, slice.data(), length, static_cast<off_t>(start));
    if (got < 0) {
      const int error = errno;
      ::close(fd);
      throw FileError(path + ": " + std::strerror(error));
    }
    for (ssize_t i = 0; i < got; ++i) ++counts[slice[static_cast<std::size_t>(i)]];
  }
  ::close(fd);
  return classify_counts(counts);
}

const DispatchTable& dispatch_table(Backend backend, AlphabetClass alphabet, std::uint64_t text_bytes) {
  const DispatchTable* nearest = nullptr;
  double nearest_distance = 0.0;
  const double size = std::log(static_cast<double>(std::max<std::uint64_t>(text_bytes, 1)));
  for (const DispatchTable& table : dispatch_tables()) {
    if (table.backend != backend || table.alphabet != alphabet) continue;
    const double distance = std::fabs(std::log(static_cast<double>(table.text_bytes)) - size);
    const bool nearer = nearest == nullptr || distance < nearest_distance ||
                        (distance == nearest_distance && table.text_bytes < nearest->text_bytes);
    if (nearer) {
      nearest = &table;
      nearest_distance = distance;
    }
  }
  if (nearest == nullptr) {
    throw std::logic_error(std::string("tools/cudamatch/dispatch.json has no table for the ") +
                           (backend == Backend::cuda ? "cuda" : "cpu") + " backend and the " + alphabet_name(alphabet) +
                           " alphabet");
  }
  return *nearest;
}

const DispatchRange& dispatch_range(const DispatchTable& table, std::size_t m) {
  for (const DispatchRange& range : table.ranges) {
    if (m >= range.m_from && (range.m_to == 0 || m <= range.m_to)) return range;
  }
  throw std::logic_error(std::string("tools/cudamatch/dispatch.json: the table of ") + table.source +
                         " has no range for m = " + std::to_string(m));
}

std::string matcher_label(Backend backend, Algorithm algorithm, int version) {
  std::string label = algorithm_name(algorithm);
  if (backend == Backend::cuda) label += ":v" + std::to_string(version);
  return label;
}

namespace {

std::string one_decimal(double x) {
  const long tenths = std::lround(x * 10.0);
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10);
}

std::string range_text(const DispatchRange& range) {
  return std::to_string(range.m_from) + (range.m_to == 0 ? "+" : "-" + std::to_string(range.m_to));
}

}  // namespace

std::string explain_choice(Backend backend, const TextTraits& text, const std::vector<std::size_t>& lengths) {
  const DispatchTable& table = dispatch_table(backend, text.sample.alphabet, text.bytes);
  std::string line = std::string(backend == Backend::cuda ? "cuda" : "cpu") + ", alphabet " +
                     alphabet_name(text.sample.alphabet) + " (";
  line += text.sample.sampled == 0 ? std::string("not sampled")
                                   : one_decimal(text.sample.effective_letters) + " effective letters in " +
                                         std::to_string(text.sample.sampled) + " bytes sampled";
  line += "), " + std::to_string(text.bytes) + "-byte text: the table measured on " + table.device + ", " +
          std::to_string(table.text_bytes) + "-byte texts (" + table.source + ", " + table.measured_on + ", ";
  line += *table.like == '\0' ? table.corpora : std::string("no corpus of this class: the ") + table.like + " table";
  line += ")";
  std::vector<std::size_t> distinct = lengths;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  std::vector<std::pair<const DispatchRange*, std::string>> used;  // each range, and its lengths: "m = 5, 7"
  for (std::size_t m : distinct) {
    const DispatchRange* range = &dispatch_range(table, m);
    const auto it = std::find_if(used.begin(), used.end(), [&](const auto& u) { return u.first == range; });
    if (it == used.end()) {
      used.emplace_back(range, "m = " + std::to_string(m));
    } else {
      it->second += ", " + std::to_string(m);
    }
  }
  const char* separator = ": ";
  for (const auto& [range, ms] : used) {
    line += separator + ms + " in " + range_text(*range) + " -> " +
            matcher_label(backend, range->algorithm, range->version) + " (measured at m = " + range->measured + ")";
    separator = "; ";
  }
  return line;
}

}  // namespace cudamatch::cli
