// Lesson 11: the table of versions.
#include "epsm_gpu.hpp"
#include "versions.hpp"

const cudamatch::GpuAlgorithm& epsm_gpu() {
  using namespace lesson11;
  static const cudamatch::GpuAlgorithm algorithm{
      cudamatch::Algorithm::epsm,
      {{"v0", "16-bit mask per pattern byte built byte by byte, one atomic per thread", v0_count, v0_positions},
       {"v1", "masks of four bytes per instruction on 32-bit words, ordered output", v1_count, v1_positions},
       {"v2", "warp-shared words and shifts, warp-uniform survivor test, grid-stride", v2_count, v2_positions}}};
  return algorithm;
}
