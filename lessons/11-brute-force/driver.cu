// Lesson 11 - brute force on the GPU: the experiment (common/matcher_experiment.hpp). Count-mode
// searches of 1 GiB device-resident texts (E. coli and the bible repeated), every version at every
// pattern length, beside the device read bandwidth measured in the same run.
//
//   ./build/default/bin/11-brute-force [--mib 1024] [--lengths 2,4,...] [--patterns 5] [--reps 3]
#include "brute_force_gpu.hpp"
#include "common/matcher_experiment.hpp"

int main(int argc, char** argv) {
  return cudamatch::run_matcher_experiment("11-brute-force", brute_force_gpu(), argc, argv);
}
