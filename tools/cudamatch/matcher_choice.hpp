// Which matcher runs a search: the algorithm (-a ALGO[:vN]) and the backend (--backend cuda|cpu).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "common/matchers/cpu_matcher.hpp"

namespace cudamatch::cli {

enum class Backend { cpu, cuda };

struct AlgorithmSpec {
  std::optional<Algorithm> algorithm;  // empty: the default for the pattern length
  std::optional<int> version;          // empty: the backend's best version
};

// "ssef", "kmp:v2", "" (all defaults). Throws UsageError naming the valid choices.
AlgorithmSpec parse_algorithm_spec(const std::string& spec);

// "cpu" or "cuda". Throws UsageError otherwise.
Backend parse_backend(const std::string& name);

// The algorithm a search uses when -a does not name one: the fastest for a pattern of m bytes on the
// CPU backend, as measured by `cudamatch bench` (docs/results/): EPSM below 16 bytes, SSEF from there.
Algorithm default_algorithm(std::size_t m);

// Throws UsageError when `backend` has no such version of `algorithm`. The CPU backend has one
// version of each algorithm, v0. The CUDA backend arrives with lessons 07-12: until then asking for
// it throws, saying so.
void require_available(Backend backend, Algorithm algorithm, std::optional<int> version);

// The matcher for `pattern` (after require_available).
std::unique_ptr<CpuMatcher> make_matcher(Backend backend, Algorithm algorithm, std::optional<int> version,
                                         ByteView pattern);

}  // namespace cudamatch::cli
