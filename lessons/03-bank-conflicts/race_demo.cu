// Lesson 03 - bank conflicts: what goes wrong without the barrier. The tiled transpose of step 1
// (finish step 1 before you read on: this is its answer, broken on purpose) with the __syncthreads()
// between writing the tile and reading it removed. A warp then reads a column of the tile, 32 values
// of which 28 were loaded by the other 7 warps, whether or not those warps have stored them yet. Wrong
// values come out only when the warps happen to be scheduled badly, so a run may well show none;
// compute-sanitizer's racecheck sees the hazard in every run:
//
//   ./build/default/bin/03-bank-conflicts-race-demo [--size N]
//   compute-sanitizer --tool racecheck ./build/default/bin/03-bank-conflicts-race-demo
//
// Exit status: 0 when the transpose ran, however many elements came out wrong; 77 without a CUDA
// device (what CTest counts as skipped); 1 on a CUDA error; 2 on bad arguments.
#include <exception>
#include <iostream>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/buffers.hpp"
#include "common/cli_parse.hpp"
#include "common/device_info.hpp"
#include "common/generators.hpp"
#include "common/table.hpp"
#include "transpose.hpp"
#include "transpose_check.hpp"

using namespace cudamatch;

namespace {

constexpr const char* kName = "03-bank-conflicts-race-demo";
constexpr int kNoDeviceStatus = 77;

__global__ void transpose_tiled_without_barrier_kernel(const float* __restrict__ in, float* __restrict__ out,
                                                       std::size_t rows, std::size_t cols) {
  __shared__ float tile[kTile][kTile];

  const std::size_t in_row = static_cast<std::size_t>(blockIdx.y) * kTile + threadIdx.y;
  const std::size_t in_col = static_cast<std::size_t>(blockIdx.x) * kTile + threadIdx.x;
  for (int j = 0; j < kTile; j += kBlockRows) {
    if (in_row + j < rows && in_col < cols) tile[threadIdx.y + j][threadIdx.x] = in[(in_row + j) * cols + in_col];
  }

  // THE BUG: no __syncthreads() here.

  const std::size_t out_row = static_cast<std::size_t>(blockIdx.x) * kTile + threadIdx.y;
  const std::size_t out_col = static_cast<std::size_t>(blockIdx.y) * kTile + threadIdx.x;
  for (int j = 0; j < kTile; j += kBlockRows) {
    if (out_row + j < cols && out_col < rows) out[(out_row + j) * rows + out_col] = tile[threadIdx.x][threadIdx.y + j];
  }
}

int run_once(std::size_t n, const char* program) {
  const std::size_t count = n * n;
  const std::vector<float> in = random_floats(count, 3);
  DeviceBuffer<float> din(count), dout(count);
  din.upload(in.data(), count);
  dout.fill_bytes(0xFF);
  transpose_tiled_without_barrier_kernel<<<transpose_grid(n, n), transpose_block()>>>(din.data(), dout.data(), n, n);
  CUDA_CHECK_LAUNCH();
  std::vector<float> out(count);
  dout.download(out.data(), count);
  const std::size_t wrong = count_mismatches(transpose_reference(in, n, n).data(), out.data(), count);

  std::cout << n << " x " << n << " transpose through a 32x32 tile without __syncthreads(): " << wrong << " of "
            << count << " elements wrong ("
            << fixed(percent_of(static_cast<double>(wrong), static_cast<double>(count)), 2) << "%)\n";
  if (wrong == 0) {
    std::cout << "No wrong element this time: a race need not show in every run, which is what makes it dangerous.\n";
  } else {
    std::cout << "Warps read tile entries that the warps loading them had not stored yet.\n";
  }
  std::cout << "racecheck finds the hazard either way: compute-sanitizer --tool racecheck " << program << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 03: the tiled transpose with its __syncthreads() removed, run once"};
  std::size_t n = 2048;
  app.add_option("--size", n, "rows (= columns) of the square matrix")
      ->check(CLI::Range(std::size_t{1}, std::size_t{16384}))
      ->capture_default_str();
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;

  const DeviceAvailability devices = cuda_devices();
  if (devices.count == 0) {
    std::cerr << kName << ": no CUDA device was found (" << devices.reason << "): nothing to demonstrate\n";
    return kNoDeviceStatus;
  }
  try {
    return run_once(n, argv[0]);
  } catch (const std::exception& e) {
    std::cerr << kName << ": error: " << e.what() << '\n';
    return 1;
  }
}
