// Lesson 01 - coalescing: the experiment. The same adds with coalesced and strided warps, and with
// aligned and misaligned starts, as effective bandwidth against the device copy measured now.
//
//   ./build/default/bin/01-coalescing [--rows R] [--cols C] [--reps N] [--warmup N] [--json FILE]
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "add_check.hpp"
#include "coalescing.hpp"
#include "common/buffers.hpp"
#include "common/cli_parse.hpp"
#include "common/driver.hpp"
#include "common/generators.hpp"
#include "common/report.hpp"

using namespace cudamatch;

namespace {

struct Version {
  std::string id;  // the row's id in the results file
  std::string name;
  std::size_t first;  // the elements the version writes: [first, first + count)
  std::size_t count;
  std::function<void(cudaStream_t)> run;
  std::string note;
};

int experiment(int rows, int cols, TimingOptions timing, const std::string& json_path) {
  const RunContext context = measure_run_context(std::cout);
  const std::size_t n = static_cast<std::size_t>(rows) * cols;
  const auto a = random_floats(n, 1), b = random_floats(n, 2);
  DeviceBuffer<float> da(n), db(n), dc(n);
  da.upload(a.data(), n);
  db.upload(b.data(), n);
  float* c = dc.data();

  const std::vector<Version> versions = {
      {"coalesced", "2-D coalesced (x -> column)", 0, n,
       [&](cudaStream_t s) { add_2d_coalesced(da.data(), db.data(), c, rows, cols, s); }, "4 sectors per request"},
      {"strided", "2-D strided (x -> row)", 0, n,
       [&](cudaStream_t s) { add_2d_strided(da.data(), db.data(), c, rows, cols, s); }, "32 sectors per request"},
      {"aligned", "1-D aligned (offset 0)", 0, n - 1,
       [&](cudaStream_t s) { add_1d(da.data(), db.data(), c, n - 1, 0, s); }, "4 sectors per request"},
      {"misaligned", "1-D misaligned (offset 1)", 1, n - 1,
       [&](cudaStream_t s) { add_1d(da.data(), db.data(), c, n - 1, 1, s); }, "5 sectors per request"},
  };

  std::vector<float> result(n);
  // check: what the last run wrote; validate: one run into a poisoned C, checked.
  const auto check = [&](const Version& v, const char* when) {
    dc.download(result.data(), n);
    const std::size_t errors = count_add_errors(a, b, result.data(), v.first, v.count);
    if (errors != 0) std::cerr << v.name << ": " << errors << " wrong elements " << when << " timing\n";
    return errors == 0;
  };
  const auto validate = [&](const Version& v, const char* when) {
    dc.fill_bytes(0xFF);
    v.run(nullptr);
    return check(v, when);
  };

  // Every timed run writes a poisoned C: skipping the work shows in the check after timing.
  timing.before_each = [&](cudaStream_t s) { CUDA_CHECK(cudaMemsetAsync(dc.data(), 0xFF, n * sizeof(float), s)); };
  BandwidthReport report(context, {std::to_string(rows) + "x" + std::to_string(cols),
                                   std::to_string(rows) + " x " + std::to_string(cols)});
  bool all_valid = true;
  for (const Version& v : versions) {
    const bool valid_before = validate(v, "before");
    const TimingStats t = time_on_gpu(v.run, timing);
    const bool valid = check(v, "after") && valid_before;
    report.add(v.id, v.name, t, 3 * sizeof(float) * static_cast<std::uint64_t>(v.count), valid, v.note);
    all_valid = all_valid && valid;
  }
  std::cout << rows << " x " << cols << " floats, C = A + B (12 bytes per element), median of " << timing.reps
            << " runs after " << timing.warmup << " warm-up runs\n\n";
  report.print(std::cout);
  const double coalesced = report.gbps("coalesced"), strided = report.gbps("strided");
  std::cout << "\ncoalesced / strided: " << fixed(strided > 0 ? coalesced / strided : 0.0, 1)
            << "x;  misaligned / aligned: "
            << fixed(report.gbps("aligned") > 0 ? report.gbps("misaligned") / report.gbps("aligned") : 0.0, 3) << '\n';
  report.save(json_path, "01-coalescing");
  return all_valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 01: coalesced, strided and misaligned element-wise adds"};
  int rows = 8192, cols = 8192;  // 256 MiB per matrix
  TimingOptions timing;
  std::string json_path;
  app.add_option("--rows", rows, "matrix rows")->check(CLI::Range(1, 1 << 19))->capture_default_str();
  app.add_option("--cols", cols, "matrix columns")->check(CLI::Range(1, 1 << 19))->capture_default_str();
  app.add_option("--reps", timing.reps, "timed repetitions")->check(CLI::Range(1, 100000))->capture_default_str();
  app.add_option("--warmup", timing.warmup, "untimed runs first")->check(CLI::Range(0, 1000))->capture_default_str();
  add_json_option(app, json_path);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  if (static_cast<long long>(rows) * cols < 2) {
    std::cerr << "01-coalescing: the matrix needs at least 2 elements\n";
    return 2;
  }
  return run_driver("01-coalescing", [&] { return experiment(rows, cols, timing, json_path); });
}
