// Lesson 12 - Knuth-Morris-Pratt on the GPU: the experiment (common/matcher_experiment.hpp). Count-mode
// searches of 1 GiB device-resident texts (E. coli and the bible repeated), every version at every
// pattern length, beside the device read bandwidth measured in the same run.
//
//   ./build/default/bin/12-kmp [--mib 1024] [--lengths 2,4,...] [--patterns 5] [--reps 3]
#include "common/matcher_experiment.hpp"
#include "kmp_gpu.hpp"

int main(int argc, char** argv) { return cudamatch::run_matcher_experiment("12-kmp", kmp_gpu(), argc, argv); }
