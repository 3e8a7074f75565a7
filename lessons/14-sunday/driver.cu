// Lesson 14 - Sunday's Quick Search on the GPU: the experiment (common/matcher_experiment.hpp). Count-mode
// searches of 1 GiB device-resident texts (E. coli and the bible repeated), every version at every
// pattern length, beside the device read bandwidth measured in the same run.
//
//   ./build/default/bin/14-sunday [--mib 1024] [--lengths 2,4,...] [--patterns 5] [--reps 3]
#include "common/matcher_experiment.hpp"
#include "sunday_gpu.hpp"

int main(int argc, char** argv) { return cudamatch::run_matcher_experiment("14-sunday", sunday_gpu(), argc, argv); }
