// Hyperscan (Intel's regular-expression engine, Debian's libhyperscan-dev) as a peer of `cudamatch bench`:
// its literal matcher, hs_compile_lit in block mode. Built in only where CMake found Hyperscan; the .cpp is
// the one file that knows whether it did.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "common/matchers/cpu_matcher.hpp"

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

}  // namespace cudamatch::cli
