// The experiment of every matcher lesson (11-16): count-mode searches of large device-resident texts
// (a corpus repeated to --mib MiB), every version of the lesson's algorithm at every pattern length,
// beside the device read bandwidth measured in the same run.
//
// What is timed: every timed call searches input that no code has seen. For each corpus, length m
// and version there are --patterns x --reps timed calls after one warm-up call, and before each call
// (untimed) a kernel rewrites the text in the same device allocation as the corpus read cyclically
// from a fresh random rotation r (text[i] = corpus[(r + i) mod L], common/rotated_text.hpp and
// device_rotation.hpp), a pattern of m bytes is drawn from a random position of that text, one byte
// inside each of 8 random occurrences of it is changed (so the text is not periodic: counting one
// period and multiplying is wrong), and the L2 cache is emptied. Each call, the search with its result read back, runs
// alone between its own pair of CUDA events. Every call's count, the warm-up's included, is checked against the count
// computed from the corpus's period and the edits (a wrong one is named on stderr and makes the row invalid), so an
// answer remembered from an earlier call, keyed on the text's address or on its content, is either wrong or never used.
// A row's time is the median over its timed calls; its GB/s, the text's bytes over that time. The rotations and pattern
// positions derive from --seed N (default fixed) or
// --seed-stdin (the autograder's).
#pragma once

#include "engine/gpu_matcher.hpp"

namespace cudamatch {

// The whole driver: options, the seed (a bad one on standard input: exit 2), no-GPU refusal (exit 2),
// tables, and with --json FILE the results file (common/results_json.hpp; case id "<corpus id>-m<m>",
// e.g. "e-coli-m16", labelled "E.coli m=16"; row ids and labels the version names "v0", "v1", ...).
// Returns the exit status.
int run_matcher_experiment(const char* lesson, const GpuAlgorithm& algorithm, int argc, char** argv);

}  // namespace cudamatch
