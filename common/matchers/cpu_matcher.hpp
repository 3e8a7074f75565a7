// The six exact matchers on the CPU: serial, exact, and fast. They are the oracles of the GPU
// versions, the CPU baselines of `cudamatch bench`, and the `--backend cpu` of `cudamatch search`.
//
// Semantics (DESIGN.md, "Matchers"): every occurrence of the pattern, overlapping ones included, as
// increasing 0-based byte offsets; text and pattern are arbitrary bytes (NUL and >= 0x80 included);
// an empty pattern is an error (EmptyPatternError); a pattern longer than the text has no occurrence;
// an empty text works. Every algorithm answers every pattern length m >= 1: where the published
// algorithm is limited to some lengths, the file of that algorithm documents the extension or fallback
// (see also common/matchers/README.md).
//
// A matcher preprocesses its pattern once and is then immutable: it may be reused on any number of
// texts (chunks of a file, benchmark repetitions) and shared between threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/brute_force.hpp"  // EmptyPatternError
#include "common/byte_view.hpp"

namespace cudamatch {

enum class Algorithm { bf, kmp, bm, sunday, epsm, ssef };

// Every algorithm, in the order above (the order `cudamatch bench` reports them).
const std::vector<Algorithm>& all_algorithms();

// "bf", "kmp", "bm", "sunday", "epsm", "ssef".
const char* algorithm_name(Algorithm a);

// The algorithm of one of the names above (case-sensitive); std::nullopt for any other string.
std::optional<Algorithm> parse_algorithm(const std::string& name);

class CpuMatcher {
 public:
  virtual ~CpuMatcher() = default;
  CpuMatcher(const CpuMatcher&) = delete;
  CpuMatcher& operator=(const CpuMatcher&) = delete;

  // Appends base + i for every occurrence of the pattern at offset i of `text`, in increasing order.
  // `out` is not cleared: a caller searching a file chunk by chunk passes each chunk's file offset.
  virtual void find_all(ByteView text, std::uint64_t base, std::vector<std::uint64_t>& out) const = 0;

  // The number of occurrences in `text` (the same semantics as find_all; nothing is allocated).
  virtual std::uint64_t count(ByteView text) const = 0;

  // The preprocessed pattern (the matcher's own copy).
  const std::vector<std::uint8_t>& pattern() const { return pattern_; }

 protected:
  // Copies the pattern; throws EmptyPatternError when it is empty.
  explicit CpuMatcher(ByteView pattern);

 private:
  std::vector<std::uint8_t> pattern_;
};

// Preprocesses `pattern` once for `algorithm`. Throws EmptyPatternError for an empty pattern.
// epsm and ssef use SSE4.2/POPCNT code when the CPU has it (checked at run time) and a portable version
// of the same algorithm otherwise.
std::unique_ptr<CpuMatcher> make_cpu_matcher(Algorithm algorithm, ByteView pattern);

// "What a user would pick instead": rows for the benchmark beside the six algorithms. Both count ALL
// overlapping occurrences (each search restarts one byte after the previous hit).
//   "memmem":  glibc memmem (two-way for long needles, tuned short-needle code),
//   "std-bmh": std::boyer_moore_horspool_searcher (C++17).
const std::vector<std::string>& comparison_names();

// Throws std::invalid_argument for a name not in comparison_names(), EmptyPatternError for an empty
// pattern.
std::unique_ptr<CpuMatcher> make_comparison_matcher(const std::string& name, ByteView pattern);

}  // namespace cudamatch
