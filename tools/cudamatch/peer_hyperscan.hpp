// Hyperscan (Intel's regular-expression engine, Debian's libhyperscan-dev) as a peer of `cudamatch bench`:
// its literal matcher, hs_compile_lit in block mode, and for `bench --multi` its literal multi-pattern
// matcher, hs_compile_lit_multi in block mode on all host cores. Built in only where CMake found Hyperscan; the .cpp is
// the one file that knows whether it did.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/matchers/cpu_matcher.hpp"
#include "multi_counters.hpp"

namespace cudamatch::cli {

// The most bytes one hs_scan takes (its length is an unsigned int).
inline constexpr std::size_t kHyperscanLargestScan = 0xFFFFFFFFu;

// Hyperscan's version, e.g. "5.4.0 2021-01-26"; std::nullopt when this build has no Hyperscan.
std::optional<std::string> hyperscan_version();

// Compiles `pattern` as one literal (any bytes) and allocates its scratch space, so that a search does
// neither. count() and find_all() scan texts in pieces of at most `piece_bytes` (at least m) overlapping
// by m - 1 bytes, so every occurrence, overlapping ones included, is reported exactly once; tests pass
// small pieces. The one scratch space serves one search at a time (a mutex). Throws EmptyPatternError
// for an empty pattern, std::runtime_error when Hyperscan refuses it, std::logic_error when this build
// has no Hyperscan.
std::unique_ptr<CpuMatcher> make_hyperscan_matcher(ByteView pattern, std::size_t piece_bytes = kHyperscanLargestScan);

// Compiles `patterns` into one database of literals (any bytes; pattern k reported as id k) and allocates
// one scratch space per thread, so that a count does neither. count() scans `threads` pieces or more of
// at most `piece_bytes` bytes at once (count_in_pieces), one thread each. Hyperscan reports every end
// offset of every literal, so overlapping occurrences and duplicates are all counted. Throws
// EmptyPatternError for an empty pattern, std::runtime_error when Hyperscan refuses the set,
// std::logic_error when this build has no Hyperscan.
std::unique_ptr<MultiCounter> make_hyperscan_multi(const std::vector<ByteView>& patterns, unsigned threads,
                                                   std::size_t piece_bytes = kHyperscanLargestScan);

}  // namespace cudamatch::cli
