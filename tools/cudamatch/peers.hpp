// The peers of `cudamatch bench`: the CPU matchers users pick instead of cudamatch, timed in the same run and
// tables as the GPU and the six CPU matchers, their counts checked the same way. glibc memmem and
// std::boyer_moore_horspool_searcher (common/matchers/comparison.cpp), and Hyperscan where the build found it
// (peer_hyperscan.hpp). Each searches for one pattern on one core, as the six CPU matchers do.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "common/matchers/cpu_matcher.hpp"

namespace cudamatch::cli {

// Every peer's name, built in or not: "memmem", "std-bmh", "hyperscan".
const std::vector<std::string>& peer_names();

// Whether Hyperscan is built in, and its version, for --version and bench --help: "Hyperscan 5.4.0 ...
// built in (cudamatch bench --peers)" or "Hyperscan not built in (to add it: apt-get install ...)".
std::string hyperscan_status();

// The peers to run: those `requested` names, each once, in that order (empty names are left out: a bare
// --peers gives one). None requested: every peer built in, and when Hyperscan is not, one line on `notes`
// saying so and how to add it. Throws UsageError for an unknown name, and for hyperscan when it is not
// built in.
std::vector<std::string> choose_peers(const std::vector<std::string>& requested, std::ostream& notes);

// The matcher of `pattern` for a peer that choose_peers() gave.
std::unique_ptr<CpuMatcher> make_peer_matcher(const std::string& name, ByteView pattern);

}  // namespace cudamatch::cli
