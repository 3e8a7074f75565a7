// Lesson 09: the table of versions.
#include "boyer_moore_gpu.hpp"
#include "versions.hpp"

const cudamatch::GpuAlgorithm& boyer_moore_gpu() {
  using namespace lesson09;
  static const cudamatch::GpuAlgorithm algorithm{
      cudamatch::Algorithm::bm,
      {{"v0", "serial Boyer-Moore per thread chunk, host-built tables, global memory, one atomic per match", v0_count,
        v0_positions},
       {"v1", "tables and pattern in shared memory, one atomic per block, ordered output", v1_count, v1_positions},
       {"v2", "tables built on the GPU, text tile staged in shared memory, odd-word chunks", v2_count, v2_positions}}};
  return algorithm;
}
