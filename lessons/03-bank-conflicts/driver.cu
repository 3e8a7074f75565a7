// Lesson 03 - bank conflicts: the experiment. Times the copy (the ceiling), the two naive transposes,
// the 32x32 shared-memory tile and the padded 32x33 tile on one matrix, beside the device copy
// bandwidth measured in the same run. Every version is validated before and after it is timed.
//
//   ./build/default/bin/03-bank-conflicts [--rows R] [--cols C] [--reps N] [--json FILE]
#include <iostream>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/buffers.hpp"
#include "common/cli_parse.hpp"
#include "common/driver.hpp"
#include "common/generators.hpp"
#include "common/report.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "transpose.hpp"
#include "transpose_check.hpp"

using namespace cudamatch;

namespace {

using TransposeFunction = void (*)(const float*, float*, std::size_t, std::size_t, cudaStream_t);

struct Version {
  std::string id;  // the row's id in the results file
  std::string name;
  TransposeFunction run;
  bool transposes;  // false: the copy, whose output is its input
  std::string note;
};

// True when every element of `dout` equals `expected`; with `run_first`, after one run of `version`
// into a poisoned output, else as the last (timed) run left it.
bool validate(const Version& version, const DeviceBuffer<float>& din, DeviceBuffer<float>& dout, std::size_t rows,
              std::size_t cols, const std::vector<float>& expected, const char* when, bool run_first = true) {
  if (run_first) {
    dout.fill_bytes(0xFF);
    version.run(din.data(), dout.data(), rows, cols, nullptr);
  }
  std::vector<float> out(expected.size());
  dout.download(out.data(), out.size());
  const std::size_t wrong = count_mismatches(expected.data(), out.data(), out.size());
  if (wrong != 0) std::cerr << version.name << ": validation " << when << " timing: " << wrong << " wrong elements\n";
  return wrong == 0;
}

int experiment(std::size_t rows, std::size_t cols, int reps, const std::string& json_path) {
  const RunContext context = measure_run_context(std::cout);
  const std::size_t count = rows * cols;
  const std::uint64_t bytes = 2 * sizeof(float) * static_cast<std::uint64_t>(count);  // read + write
  std::cout << "transpose of a " << rows << " x " << cols << " float matrix ("
            << fixed(static_cast<double>(bytes) / 1e6, 1) << " MB read + written), median of " << reps << " runs\n\n";

  const std::vector<float> in = random_floats(count, 1);
  const std::vector<float> transposed = transpose_reference(in, rows, cols);
  DeviceBuffer<float> din(count), dout(count);
  din.upload(in.data(), count);

  const std::vector<Version> versions = {
      {"copy", "copy (ceiling)", transpose_copy, false, "no transpose: reads and writes coalesced"},
      {"write-strided", "naive write-strided", transpose_naive_write_strided, true,
       "writes: 32 sectors per warp request"},
      {"read-strided", "naive read-strided", transpose_naive_read_strided, true, "reads: 32 sectors per warp request"},
      {"tiled", "tiled 32x32", transpose_tiled, true, "column reads of the tile: 32-way bank conflict"},
      {"padded", "padded 32x33", transpose_padded, true, "one word of padding per tile row"},
  };
  TimingOptions timing;
  timing.reps = reps;
  // Every timed run writes a poisoned output: skipping the work shows in the check after timing.
  timing.before_each = [&](cudaStream_t s) {
    CUDA_CHECK(cudaMemsetAsync(dout.data(), 0xFF, count * sizeof(float), s));
  };
  BandwidthReport report(context, {std::to_string(rows) + "x" + std::to_string(cols),
                                   std::to_string(rows) + " x " + std::to_string(cols)});
  bool all_valid = true;
  for (const Version& version : versions) {
    const std::vector<float>& expected = version.transposes ? transposed : in;
    const bool valid_before = validate(version, din, dout, rows, cols, expected, "before");
    const TimingStats time =
        time_on_gpu([&](cudaStream_t s) { version.run(din.data(), dout.data(), rows, cols, s); }, timing);
    const bool valid = validate(version, din, dout, rows, cols, expected, "after", false) && valid_before;
    report.add(version.id, version.name, time, bytes, valid, version.note);
    all_valid = all_valid && valid;
  }
  report.print(std::cout);

  const double padded = report.gbps("padded");
  const double tiled = report.gbps("tiled");
  std::cout << "\npadded 32x33 reaches " << fixed(percent_of(padded, report.gbps("copy")), 1)
            << "% of the copy (ceiling) row and runs " << fixed(tiled > 0.0 ? padded / tiled : 0.0, 2)
            << "x as fast as tiled 32x32.\n";
  report.save(json_path, "03-bank-conflicts");
  return all_valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 03: matrix transpose, naive, through a shared-memory tile, and padded"};
  std::size_t rows = 8192, cols = 8192;  // 256 MiB per matrix: many times any GPU's L2
  int reps = 20;
  std::string json_path;
  app.add_option("--rows", rows, "rows of the input matrix")
      ->check(CLI::Range(std::size_t{1}, kMaxTransposeRows))
      ->capture_default_str();
  app.add_option("--cols", cols, "columns of the input matrix")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30))
      ->capture_default_str();
  app.add_option("--reps", reps, "timed repetitions")->check(CLI::Range(1, 100000))->capture_default_str();
  add_json_option(app, json_path);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  return run_driver("03-bank-conflicts", [&] { return experiment(rows, cols, reps, json_path); });
}
