// Lesson 05 - grid-stride loops: the experiment. Monolithic SAXPY against grid-stride SAXPY launched
// with 1 to 32 blocks per multiprocessor, and the serial <<<1, 1>>> launch checked for the same bits.
//
//   ./build/default/bin/05-grid-stride-loops [--n ELEMENTS] [--reps N] [--warmup N] [--json FILE]
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/buffers.hpp"
#include "common/cli_parse.hpp"
#include "common/driver.hpp"
#include "common/generators.hpp"
#include "common/report.hpp"
#include "common/saxpy_check.hpp"
#include "grid_stride.hpp"

using namespace cudamatch;

namespace {

constexpr float kA = 1.5f;

int experiment(std::size_t n, TimingOptions timing, const std::string& json_path) {
  const RunContext context = measure_run_context(std::cout);
  const auto x = random_floats(n, 1), y0 = random_floats(n, 2);
  DeviceBuffer<float> dx(n), dy(n);
  dx.upload(x.data(), n);

  // The ids and names do not depend on the GPU (the results file is compared across GPUs); the block
  // counts, which do, are in the note.
  struct Version {
    std::string id;  // the row's id in the results file
    std::string name;
    std::function<void(std::size_t, cudaStream_t)> run;  // SAXPY of the first `count` elements
    std::string note;
  };
  std::vector<Version> versions = {
      {"monolithic", "monolithic",
       [&](std::size_t count, cudaStream_t s) { saxpy_monolithic(kA, dx.data(), dy.data(), count, s); },
       std::to_string((n + 255) / 256) + " blocks of 256 threads"}};
  for (unsigned per_sm : {1u, 2u, 4u, 8u, 16u, 32u}) {
    const unsigned blocks = blocks_for_device(per_sm);
    versions.push_back({"grid-stride-" + std::to_string(per_sm),
                        "grid-stride, " + std::to_string(per_sm) + " blocks/SM",
                        [&, blocks](std::size_t count, cudaStream_t s) {
                          saxpy_grid_stride(kA, dx.data(), dy.data(), count, blocks, 256, s);
                        },
                        std::to_string(blocks) + " blocks of 256 threads"});
  }

  std::vector<float> y(n);
  const auto validate = [&](const Version& v, std::size_t count, const char* when) {
    dy.upload(y0.data(), n);
    v.run(count, nullptr);
    dy.download(y.data(), n);
    const std::size_t errors = count_saxpy_errors(kA, x, y0, y.data(), count);
    if (errors != 0) std::cerr << v.name << ": " << errors << " wrong elements " << when << " timing\n";
    return errors == 0;
  };

  BandwidthReport report(context, {"n" + std::to_string(n), std::to_string(n) + " floats"});
  bool all_valid = true;
  for (const Version& v : versions) {
    const bool valid_before = validate(v, n, "before");
    const TimingStats t = time_on_gpu([&](cudaStream_t s) { v.run(n, s); }, timing);
    const bool valid = validate(v, n, "after") && valid_before;
    report.add(v.id, v.name, t, 3 * sizeof(float) * static_cast<std::uint64_t>(n), valid, v.note);
    all_valid = all_valid && valid;
  }

  // The debugging launch: one thread does every element in order. Too slow for the whole array, so
  // it runs on a prefix and must give the monolithic kernel's bits.
  const std::size_t serial_n = std::min<std::size_t>(n, 1 << 16);
  std::vector<float> serial(serial_n), monolithic(serial_n);
  dy.upload(y0.data(), n);
  saxpy_grid_stride(kA, dx.data(), dy.data(), serial_n, 1, 1);
  dy.download(serial.data(), serial_n);
  dy.upload(y0.data(), n);
  saxpy_monolithic(kA, dx.data(), dy.data(), serial_n);
  dy.download(monolithic.data(), serial_n);
  const bool serial_same = std::memcmp(serial.data(), monolithic.data(), serial_n * sizeof(float)) == 0;

  std::cout << "SAXPY of " << n << " floats (12 bytes per element), median of " << timing.reps << " runs\n\n";
  report.print(std::cout);
  const double mono = report.gbps("monolithic");
  double best = 0.0;
  std::string best_name;
  for (std::size_t i = 1; i < versions.size(); ++i) {
    if (report.gbps(versions[i].id) > best) best = report.gbps(versions[i].id), best_name = versions[i].name;
  }
  std::cout << "\nbest grid-stride (" << best_name << "): " << fixed(percent_of(best, mono), 1)
            << "% of monolithic\nserial <<<1, 1>>> on the first " << serial_n
            << " elements: " << (serial_same ? "same bits as monolithic" : "DIFFERENT from monolithic") << '\n';
  report.save(json_path, "05-grid-stride-loops");
  return all_valid && serial_same ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 05: monolithic and grid-stride SAXPY, and the blocks-per-SM sweep"};
  std::size_t n = std::size_t{1} << 27;
  TimingOptions timing;
  std::string json_path;
  app.add_option("--n", n, "elements per array")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 34))
      ->capture_default_str();
  app.add_option("--reps", timing.reps, "timed repetitions")->check(CLI::Range(1, 100000))->capture_default_str();
  app.add_option("--warmup", timing.warmup, "untimed runs first")->check(CLI::Range(0, 1000))->capture_default_str();
  add_json_option(app, json_path);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  return run_driver("05-grid-stride-loops", [&] { return experiment(n, timing, json_path); });
}
