// The experiment of every matcher lesson (07-12): count-mode searches of large device-resident texts
// (a corpus repeated to --mib MiB), every version of the lesson's algorithm at every pattern length,
// beside the device read bandwidth measured in the same run. Each search is validated against a CPU
// matcher before and after it is timed.
#pragma once

#include "common/gpu_matcher.hpp"

namespace cudamatch {

// The whole driver: options, no-GPU refusal (exit 2), tables, and with --json FILE the results file
// (common/results_json.hpp; case "<corpus> m=<m>", version "v0", "v1", ...). Returns the exit status.
int run_matcher_experiment(const char* lesson, const GpuAlgorithm& algorithm, int argc, char** argv);

}  // namespace cudamatch
