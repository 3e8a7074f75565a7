// Lesson 07: the table of versions.
#include "brute_force_gpu.hpp"
#include "versions.hpp"

const cudamatch::GpuAlgorithm& brute_force_gpu() {
  using namespace lesson07;
  static const cudamatch::GpuAlgorithm algorithm{
      cudamatch::Algorithm::bf,
      {{"v0", "one thread per position in global memory, one atomic per match", v0_count, v0_positions},
       {"v1", "shared-memory tile and pattern, one atomic per block, ordered output", v1_count, v1_positions},
       {"v2", "two-byte byte-SIMD filter, 16 positions per thread", v2_count, v2_positions},
       {"v3", "four-byte word filter, warp-cooperative verification", v3_count, v3_positions}}};
  return algorithm;
}
