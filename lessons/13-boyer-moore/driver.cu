// Lesson 13 - Boyer-Moore on the GPU: the experiment (common/matcher_experiment.hpp). Count-mode
// searches of 1 GiB device-resident texts (E. coli and the bible repeated), every version at every
// pattern length, beside the device read bandwidth measured in the same run.
//
//   ./build/default/bin/13-boyer-moore [--mib 1024] [--lengths 2,4,...] [--patterns 5] [--reps 3]
#include "boyer_moore_gpu.hpp"
#include "common/matcher_experiment.hpp"

int main(int argc, char** argv) {
  return cudamatch::run_matcher_experiment("13-boyer-moore", boyer_moore_gpu(), argc, argv);
}
