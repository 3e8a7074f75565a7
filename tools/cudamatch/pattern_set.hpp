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
#include "dispatch.hpp"
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

// How a search runs its patterns in one text. Without -a: on the CPU from kOnePassForAllFrom patterns on,
// one Aho-Corasick pass for all; on the GPU from two patterns on, one pass of the multi-pattern version
// chosen_multi_version() where this build has one; otherwise one pass per pattern with the dispatch
// table's matcher for the pattern's length and the text (dispatch.hpp). With -a: one pass per pattern
// with the matcher it names.
struct SearchPlan {
  enum class Pass {
    each,          // one pass per pattern with `matchers`
    aho_corasick,  // one_pass_for_all
    gpu_multi,     // gpu_one_pass_for_all with `multi`
  };
  Pass pass = Pass::each;
  std::vector<AlgorithmSpec> matchers;     // one per pattern with Pass::each; version: empty, the best
  const GpuMultiVersion* multi = nullptr;  // with Pass::gpu_multi
  std::string why;                         // one line for --verbose

  // Whether the two run the same matchers (`why` aside).
  bool runs_as(const SearchPlan& other) const {
    return pass == other.pass && matchers == other.matchers && multi == other.multi;
  }
};

// The plan for patterns of the given lengths on `backend`, -a's `spec`, in a text of `text`'s traits.
SearchPlan plan_search(Backend backend, const AlgorithmSpec& spec, const std::vector<std::size_t>& lengths,
                       const TextTraits& text);

// The search of distinct `patterns` (-i: lowered) as `plan` says. One pass per pattern runs the matchers
// of make_matcher, merged, whose count answers for a single pattern only and needs `seen` shorter than it
// (pieces overlap by its length - 1).
std::unique_ptr<PatternSet> make_pattern_set(Backend backend, const SearchPlan& plan,
                                             const std::vector<ByteView>& patterns);

// Throws std::runtime_error, in one line, when `found` (a search's matches in a `size`-byte text at `base`) is
// not what find promises: every pattern index one of `lengths`' (the search's patterns), every match inside
// the text, in the output's order (by offset; at one offset the longer pattern first). The matches of the
// GPU come from kernels a student may be writing (a record the write pass missed is all ones): checked,
// they are one error line, not a read past the piece or a silently wrong order.
void check_matches(const std::vector<Hit>& found, std::uint64_t base, std::size_t size,
                   const std::vector<std::size_t>& lengths);

// The patterns in one pass over each piece, with the Aho-Corasick automaton of common/aho_corasick.hpp.
std::unique_ptr<PatternSet> one_pass_for_all(const std::vector<ByteView>& patterns);

// The patterns in one pass over each piece on the GPU with `version` (engine/multi_matcher.hpp): the
// pattern set is built once; each piece is copied to the device once (into one allocation, grown when a
// piece is larger) and searched for every pattern.
std::unique_ptr<PatternSet> gpu_one_pass_for_all(const GpuMultiVersion& version, const std::vector<ByteView>& patterns);

}  // namespace cudamatch::cli
