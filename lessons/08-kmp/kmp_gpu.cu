// Lesson 08: the table of versions.
#include "kmp_gpu.hpp"
#include "versions.hpp"

const cudamatch::GpuAlgorithm& kmp_gpu() {
  using namespace lesson08;
  static const cudamatch::GpuAlgorithm algorithm{
      cudamatch::Algorithm::kmp,
      {{"v0", "a KMP automaton per thread over its own chunk, global memory, one atomic per match", v0_count,
        v0_positions},
       {"v1", "failure table in shared memory, one atomic per block, ordered output", v1_count, v1_positions},
       {"v2", "text staged in shared memory without bank conflicts, a DFA for m <= 16", v2_count, v2_positions}}};
  return algorithm;
}
