// The CPU rows of `cudamatch bench --multi`: a set of patterns counted in a text on all host cores. The
// text is cut into pieces that overlap by the longest pattern's length - 1; each piece counts the
// occurrences that end in its own bytes, after the ones it shares with the piece before, so that every
// occurrence is counted exactly once (as in file_scan.hpp). Threads take the pieces in turn.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "common/aho_corasick.hpp"
#include "common/byte_view.hpp"

namespace cudamatch::cli {

class MultiCounter {
 public:
  virtual ~MultiCounter() = default;
  // Every occurrence of every pattern in `text`, overlapping ones and duplicates (under each index)
  // included, in total and per pattern: common/aho_corasick.hpp's semantics.
  virtual PatternCounts count(ByteView text) const = 0;
};

// Adds the occurrences in `piece` that end after its first `seen` bytes to `into`; `thread` (< the
// threads of count_in_pieces) says which thread calls, for per-thread state.
using PieceCounter = std::function<void(ByteView piece, std::size_t seen, unsigned thread, PatternCounts& into)>;

// The counts of `patterns` patterns, the longest of `longest` bytes, in `text`: at least `threads`
// pieces of at most `largest_piece` bytes each (overlap included; at least `longest`), counted by
// `count_piece` on `threads` threads and summed. Rethrows what a count throws.
PatternCounts count_in_pieces(ByteView text, std::size_t patterns, std::size_t longest, unsigned threads,
                              std::size_t largest_piece, const PieceCounter& count_piece);

// The counts of `automaton`'s patterns in `text`, which repeats with period `period` where bench made it so
// (a corpus repeated, repeat_to: text[i + period] == text[i], checked). Cut into pieces of `period` bytes,
// each after the first starting one byte less than the longest pattern early, those pieces hold the same
// bytes but for the last, so one count serves them all: 1 GiB of a 4 MB corpus costs three counts of about
// 4 MB. A text that does not repeat so is counted on `threads` threads (count_in_pieces).
PatternCounts count_repeated(const AhoCorasick& automaton, ByteView text, std::size_t period, unsigned threads);

// The Aho-Corasick automaton of common/aho_corasick.hpp, built once, counting on `threads` threads.
std::unique_ptr<MultiCounter> make_parallel_aho_corasick(const std::vector<ByteView>& patterns, unsigned threads);

}  // namespace cudamatch::cli
