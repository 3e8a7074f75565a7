// Lesson 15 - EPSM on the GPU: the experiment (common/matcher_experiment.hpp). Count-mode searches of
// 1 GiB device-resident texts (E. coli and the bible repeated), every version at every pattern length,
// beside the device read bandwidth measured in the same run.
//
//   ./build/default/bin/15-epsm [--mib 1024] [--lengths 2,4,...] [--patterns 5] [--reps 3]
#include "common/matcher_experiment.hpp"
#include "epsm_gpu.hpp"

int main(int argc, char** argv) { return cudamatch::run_matcher_experiment("15-epsm", epsm_gpu(), argc, argv); }
