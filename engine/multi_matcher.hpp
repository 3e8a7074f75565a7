// Multi-pattern search on the GPU (lesson 18): the interface its versions implement, so that the tests,
// the lesson's driver, `cudamatch search -f` and `cudamatch bench --multi` treat every version alike.
//
// Semantics are those of the CPU reference, common/aho_corasick.hpp: every occurrence of every pattern,
// overlapping ones included, as PatternMatch (offset, pattern index) sorted by offset, then pattern;
// duplicates reported under each of their indices; a pattern inside another found there too; any bytes
// (NUL and >= 0x80 included); a pattern longer than the text has no occurrence; an empty pattern is an
// error (std::invalid_argument naming its index); an empty set finds nothing.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/aho_corasick.hpp"
#include "common/byte_view.hpp"
#include "engine/device_text.hpp"

namespace cudamatch {

// One pattern set in the form a version searches (automaton, filter, tables on the device), built once
// and searched in many texts: a file's pieces, a benchmark's repetitions.
class GpuPatternSet {
 public:
  virtual ~GpuPatternSet() = default;

  // The occurrences that end after the first `seen` bytes of `text` (offset + length > seen; 0: all of
  // them), in total and per pattern. `seen` is what a piece shares with the previous one, whose search
  // counted the matches inside it. Synchronizes `stream`.
  virtual PatternCounts count(const DeviceText& text, std::size_t seen, cudaStream_t stream) = 0;

  // Appends every occurrence in `text`, offsets plus `base`, sorted (offset, then pattern), to `out`.
  // Synchronizes `stream`.
  virtual void find_all(const DeviceText& text, std::uint64_t base, std::vector<PatternMatch>& out,
                        cudaStream_t stream) = 0;
};

// A version: string literals and a function, so that it is a constant defined in the version's own file.
struct GpuMultiVersion {
  const char* name;     // "v0", "v1", ...
  const char* summary;  // one line: what this version changes
  // Builds the device structures of `patterns` (the patterns are copied, not kept). `sample`: bytes like
  // those the set will search (the head of the text, sample_of), or none; a version may tune its
  // structures to it (v3 anchors each pattern on a gram rare there), never its results. Throws
  // std::invalid_argument for an empty pattern.
  std::unique_ptr<GpuPatternSet> (*build)(const std::vector<ByteView>& patterns, ByteView sample, cudaStream_t stream);
};

// The sample a set is built with: the first MiB of the text it will search (all of a shorter one).
inline ByteView sample_of(ByteView text) {
  constexpr std::size_t kSampleBytes = std::size_t{1} << 20;
  return {text.data, text.size < kSampleBytes ? text.size : kSampleBytes};
}

struct GpuMultiAlgorithm {
  std::vector<GpuMultiVersion> versions;  // v0 first, the best last

  const GpuMultiVersion& baseline() const { return versions.front(); }
  const GpuMultiVersion& best() const { return versions.back(); }
  // Throws std::out_of_range naming the versions there are.
  const GpuMultiVersion& version(int number) const {
    if (number < 0 || static_cast<std::size_t>(number) >= versions.size()) {
      throw std::out_of_range("no version v" + std::to_string(number) + " of multi-pattern search (v0-v" +
                              std::to_string(versions.size() - 1) + ")");
    }
    return versions[static_cast<std::size_t>(number)];
  }
};

}  // namespace cudamatch
