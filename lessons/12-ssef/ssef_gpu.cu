// Lesson 12: the table of versions.
#include "ssef_gpu.hpp"
#include "versions.hpp"

const cudamatch::GpuAlgorithm& ssef_gpu() {
  using namespace lesson12;
  static const cudamatch::GpuAlgorithm algorithm{
      cudamatch::Algorithm::ssef,
      {{"v0", "linked-list table uploaded per search, a thread per examined block, byte loads", v0_count, v0_positions},
       {"v1", "CSR table built on the GPU, one load per block, ordered output", v1_count, v1_positions},
       {"v2", "bucket bitmap in shared memory, block compare, warp-cooperative verification", v2_count, v2_positions}}};
  return algorithm;
}
