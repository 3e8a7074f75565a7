// Which matcher runs a search: the algorithm (-a ALGO[:vN]) and the backend (--backend cuda|cpu).
#pragma once

#include <cstddef>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "engine/gpu_matcher.hpp"
#include "engine/multi_matcher.hpp"
#include "common/matchers/cpu_matcher.hpp"

namespace cudamatch::cli {

enum class Backend { cpu, cuda };

struct AlgorithmSpec {
  std::optional<Algorithm> algorithm;  // empty: the dispatch table's choice (dispatch.hpp)
  std::optional<int> version;          // empty: the backend's best version

  bool operator==(const AlgorithmSpec& other) const { return algorithm == other.algorithm && version == other.version; }
};

// "ssef", "kmp:v2", "" (all defaults). Throws UsageError naming the valid choices.
AlgorithmSpec parse_algorithm_spec(const std::string& spec);

// "cpu" or "cuda". Throws UsageError otherwise.
Backend parse_backend(const std::string& name);

// Throws UsageError when `backend` has no such version of `algorithm`. The CPU backend has one
// version of each algorithm, v0; the CUDA backend has the versions of the algorithm's lesson, and
// none yet for the algorithms whose lessons are still to come (it says so).
void require_available(Backend backend, Algorithm algorithm, std::optional<int> version);

// Throws UsageError, before any input is read, when a search cannot run: `spec` names an algorithm or
// version that `backend` lacks (require_available), or the backend is CUDA and there is no GPU.
void require_runnable(Backend backend, const AlgorithmSpec& spec);

// The backend a search uses when --backend does not name one: CUDA when there is a GPU and the
// algorithm (when one is named) has a CUDA version; otherwise the CPU, with a note on `notes` saying
// why when there is no GPU.
Backend default_backend(std::optional<Algorithm> algorithm, std::ostream& notes);

// The GPU version a CUDA search runs (after require_available): `version`, or the algorithm's best.
// Without a GPU, throws UsageError saying so.
const GpuVersion& chosen_gpu_version(Algorithm algorithm, std::optional<int> version);

// The version that searches several patterns in one pass on the CUDA backend: the best of the multi-pattern
// table (lesson 18), or null when this build has none (the patterns are then searched one pass each).
// Whether there is a GPU is the caller's to check (require_runnable).
const GpuMultiVersion* chosen_multi_version();

// The matcher for `pattern` (after require_available); a version left out is the backend's best. For
// the CUDA backend without a GPU, throws UsageError saying so.
std::unique_ptr<CpuMatcher> make_matcher(Backend backend, Algorithm algorithm, std::optional<int> version,
                                         ByteView pattern);

}  // namespace cudamatch::cli
