// Lesson 16 - SSEF on the GPU: the experiment (common/matcher_experiment.hpp). Count-mode searches of
// 1 GiB device-resident texts (E. coli and the bible repeated), every version at every pattern length,
// beside the device read bandwidth measured in the same run. (What the filter lets through, bit 7
// against the chosen bits, is counted on the host by bin/16-ssef-filter.)
//
//   ./build/default/bin/16-ssef [--mib 1024] [--lengths 2,4,...] [--patterns 5] [--reps 3]
#include "common/matcher_experiment.hpp"
#include "ssef_gpu.hpp"

int main(int argc, char** argv) { return cudamatch::run_matcher_experiment("16-ssef", ssef_gpu(), argc, argv); }
