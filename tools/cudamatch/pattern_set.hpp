// The patterns of one `cudamatch search`, searched together in each piece of a file: their matches in
// the order the output lists them (by offset; at one offset the longer pattern first), or their number.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "common/aho_corasick.hpp"
#include "common/byte_view.hpp"
#include "engine/multi_matcher.hpp"
#include "matcher_choice.hpp"

namespace cudamatch::cli {

// A match: where and which pattern (an index into the search's patterns).
struct Hit {
  std::uint64_t offset;
  std::size_t pattern;
};

class PatternSet {
 public:
  virtual ~PatternSet() = default;

  // Appends the matches in `text`, offsets plus `base`, in the output's order.
  virtual void find(ByteView text, std::uint64_t base, std::vector<Hit>& out) = 0;

  // The matches in `text` that end after its first `seen` bytes (the bytes it shares with the previous
  // piece, whose matches that piece counted), in total and per pattern (indexed like the search's
  // patterns), or std::nullopt when only find can tell.
  virtual std::optional<PatternCounts> count(ByteView text, std::size_t seen) = 0;
};

// From this many patterns on, the CPU searches them in one Aho-Corasick pass; below, one pass each with
// the fastest single-pattern matcher (EPSM, SSEF: several GB/s each) is faster. Measured with patterns of
// 8-32 bytes drawn from 100 MB of each corpus: one pass each won at 16 patterns by 8-17%, tied at 20,
// lost at 24 by 8-16% (the README's `cudamatch search`).
constexpr std::size_t kOnePassForAllFrom = 20;

// The search of distinct `patterns` (-i: lowered) on `backend`, unless -a names an algorithm: on the CPU
// one_pass_for_all from kOnePassForAllFrom patterns on; on the GPU, from two patterns on,
// gpu_one_pass_for_all with chosen_multi_version() where this build has one. Otherwise one pass per
// pattern with the matcher of make_matcher, merged, whose count answers for a single pattern only and
// needs `seen` shorter than it (pieces overlap by its length - 1).
std::unique_ptr<PatternSet> make_pattern_set(Backend backend, const AlgorithmSpec& spec,
                                             const std::vector<ByteView>& patterns);

// The occurrences that `automaton` finds in `text` ending after its first `seen` bytes (0: all of them).
PatternCounts count_ending_after(const AhoCorasick& automaton, ByteView text, std::size_t seen);

// The patterns in one pass over each piece, with the Aho-Corasick automaton of common/aho_corasick.hpp.
std::unique_ptr<PatternSet> one_pass_for_all(const std::vector<ByteView>& patterns);

// The patterns in one pass over each piece on the GPU with `version` (engine/multi_matcher.hpp): the
// pattern set is built once; each piece is copied to the device once (into one allocation, grown when a
// piece is larger) and searched for every pattern.
std::unique_ptr<PatternSet> gpu_one_pass_for_all(const GpuMultiVersion& version, const std::vector<ByteView>& patterns);

}  // namespace cudamatch::cli
