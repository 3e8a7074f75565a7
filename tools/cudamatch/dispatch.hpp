// The matcher a search runs when -a names none, and bench's auto rows: looked up by (backend, the text's
// alphabet class, the text's size, the pattern length m) in the dispatch table that `cudamatch bench`
// measured. The table is tools/cudamatch/dispatch.json, made from committed bench CSVs by
// tools/course/dispatch_table.py (which documents how each entry is chosen) and compiled into
// dispatch_tables() by tools/cudamatch/CMakeLists.txt.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/byte_view.hpp"
#include "matcher_choice.hpp"

namespace cudamatch::cli {

// The alphabet class of a text, from its effective alphabet size: 1 / sum(p_b^2) over the byte values b
// of a sample, p_b the share of b (the inverse of the chance that two random bytes of the text are
// equal, which is what the skip distances and filter hits of the matchers depend on):
//   small: <= 6 effective letters (E.coli: 4.0; a FASTA file of DNA: 4.1; a binary that is mostly NUL);
//   text:  <= 64 (bible.txt 13.3, world192.txt 17.3 in their samples; an executable: about 10-13);
//   wide:  more (random or compressed bytes: 200-256).
// An empty text is `text`. The classes are the table's (dispatch.json, dispatch_table.py's CLASSES).
enum class AlphabetClass { small, text, wide };
inline constexpr std::uint64_t kSmallAlphabetMax = 6;
inline constexpr std::uint64_t kTextAlphabetMax = 64;

// "small", "text", "wide".
const char* alphabet_name(AlphabetClass alphabet);

// The classifier's sample of a text of n bytes: all of it up to kSampleSlices * kSliceBytes bytes, else
// kSampleSlices slices of kSliceBytes spread evenly from its start to its end (the first at 0, the last
// ending at n), so that a header does not decide the class.
inline constexpr std::size_t kSampleSlices = 16;
inline constexpr std::size_t kSliceBytes = 4096;

// Where each slice of the sample of an n-byte text starts (one slice, at 0, when the text is that short).
std::vector<std::uint64_t> sample_offsets(std::uint64_t n);

struct AlphabetSample {
  AlphabetClass alphabet = AlphabetClass::text;
  double effective_letters = 0.0;  // 1 / sum(p_b^2); 0 for an empty sample
  std::uint64_t sampled = 0;       // bytes looked at
};

// The class of a sample whose byte values occur counts[b] times.
AlphabetSample classify_counts(const std::array<std::uint64_t, 256>& counts);

// The class of `text` from its sample (sample_offsets).
AlphabetSample classify_alphabet(ByteView text);

// The class of the regular file at `path` from the same sample, read where it lies. Throws FileError when
// the file cannot be read.
AlphabetSample classify_file(const std::string& path);

// What the choice knows of a text: its alphabet and the bytes one search of it gets.
struct TextTraits {
  AlphabetSample sample;
  std::uint64_t bytes = 0;
};

// One entry of a table: from m_from to m_to bytes (0: no end), the matcher chosen at the lengths
// `measured` (the bench's m, in the range).
struct DispatchRange {
  std::size_t m_from;
  std::size_t m_to;
  Algorithm algorithm;
  int version;
  const char* measured;  // "8" or "16, 32, 64"
};

// The table of one backend, alphabet class and text size: which CSV it comes from and its ranges, in
// order, from m = 1 on without a gap.
struct DispatchTable {
  Backend backend;
  AlphabetClass alphabet;
  std::uint64_t text_bytes;  // the size of the texts measured (their median)
  const char* source;        // the CSV
  const char* device;        // where it was measured
  const char* measured_on;   // the date
  const char* corpora;       // the corpora of the class, "" when none was measured
  const char* like;          // then the class whose table this copies; else ""
  std::vector<DispatchRange> ranges;
};

// Every table of dispatch.json (generated).
const std::vector<DispatchTable>& dispatch_tables();

// The table of `backend` and `alphabet` whose text size is nearest to `text_bytes` in log scale (the
// smaller on a tie). Throws std::logic_error when dispatch.json has no table for them.
const DispatchTable& dispatch_table(Backend backend, AlphabetClass alphabet, std::uint64_t text_bytes);

// The range of `table` that holds m (m >= 1).
const DispatchRange& dispatch_range(const DispatchTable& table, std::size_t m);

// "epsm:v2" on the cuda backend, "epsm" on the cpu (the names of `cudamatch bench`).
std::string matcher_label(Backend backend, Algorithm algorithm, int version);

// One line for --verbose: why patterns of the lengths `lengths` get their matchers in a text of `text`'s
// traits on `backend` (m, the alphabet, the table and the range of each distinct range used).
std::string explain_choice(Backend backend, const TextTraits& text, const std::vector<std::size_t>& lengths);

}  // namespace cudamatch::cli
