// Lesson 10: the table of versions.
#include "sunday_gpu.hpp"
#include "versions.hpp"

const cudamatch::GpuAlgorithm& sunday_gpu() {
  using namespace lesson10;
  static const cudamatch::GpuAlgorithm algorithm{
      cudamatch::Algorithm::sunday,
      {{"v0", "serial Quick Search per thread chunk, host-built table, global memory, one atomic per match", v0_count,
        v0_positions},
       {"v1", "shift table and pattern built in shared memory per block, one atomic per block, ordered output",
        v1_count, v1_positions},
       {"v2", "text tile staged in shared memory, odd-word chunks, 4-byte window test", v2_count, v2_positions}}};
  return algorithm;
}
