// Lesson 00 - measuring: the experiment. Times one SAXPY four ways and prints what each way claims,
// beside the theoretical bandwidth and the device copy bandwidth measured in the same run.
//
//   ./build/default/bin/00-measuring [--n ELEMENTS] [--reps N] [--json FILE]
#include <chrono>
#include <iostream>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/buffers.hpp"
#include "common/ceilings.hpp"
#include "common/cli_parse.hpp"
#include "common/device_info.hpp"
#include "common/driver.hpp"
#include "common/generators.hpp"
#include "common/results_json.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "saxpy.hpp"
#include "common/saxpy_check.hpp"

using namespace cudamatch;

namespace {

double host_ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The median of `reps` host-clock measurements of one SAXPY launch, with or without waiting for it.
double host_timed_ms(int reps, bool synchronize, const std::function<void()>& launch) {
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    CUDA_CHECK(cudaDeviceSynchronize());
    const auto start = std::chrono::steady_clock::now();
    launch();
    if (synchronize) CUDA_CHECK(cudaDeviceSynchronize());
    samples.push_back(host_ms_since(start));
  }
  CUDA_CHECK(cudaDeviceSynchronize());
  return summarize_ms(samples).median_ms;
}

bool validate(float a, const std::vector<float>& x, const std::vector<float>& y0, DeviceBuffer<float>& dx,
              DeviceBuffer<float>& dy, const char* when) {
  dy.upload(y0.data(), y0.size());
  saxpy(a, dx.data(), dy.data(), x.size());
  std::vector<float> y(y0.size());
  dy.download(y.data(), y.size());
  const std::size_t errors = count_saxpy_errors(a, x, y0, y.data(), y.size());
  if (errors != 0) std::cerr << "validation " << when << " timing: " << errors << " wrong elements\n";
  return errors == 0;
}

int experiment(std::size_t n, int reps, const std::string& json_path) {
  const float a = 1.5f;
  const std::vector<float> x = random_floats(n, 1);
  const std::vector<float> y0 = random_floats(n, 2);
  DeviceBuffer<float> dx(n), dy(n);
  dx.upload(x.data(), n);
  dy.upload(y0.data(), n);
  const auto launch = [&] { saxpy(a, dx.data(), dy.data(), n); };

  // The very first launch pays for loading the kernel's module (lazy loading) and first use.
  const double cold_ms = host_timed_ms(1, true, launch);

  const bool valid_before = validate(a, x, y0, dx, dy, "before");
  const DeviceInfo device = query_device();
  const Ceilings ceilings = measure_ceilings(device);

  const double no_sync_ms = host_timed_ms(reps, false, launch);
  const double sync_ms = host_timed_ms(reps, true, launch);
  std::vector<double> event_samples;
  for (int r = 0; r < reps; ++r) {
    event_samples.push_back(elapsed_ms_with_events([&](cudaStream_t s) { saxpy(a, dx.data(), dy.data(), n, s); }));
  }
  const double events_ms = summarize_ms(event_samples).median_ms;
  const bool valid = validate(a, x, y0, dx, dy, "after") && valid_before;

  const std::uint64_t bytes = saxpy_bytes_moved(n);
  std::cout << device.name << ", SAXPY of " << n << " floats (" << fixed(static_cast<double>(bytes) / 1e6, 1)
            << " MB moved by your saxpy_bytes_moved), median of " << reps << " runs\n"
            << "ceilings: theoretical " << fixed(ceilings.theoretical_gbps, 0) << " GB/s, device copy "
            << fixed(ceilings.device_copy_gbps, 0) << " GB/s, one empty kernel launch "
            << fixed(1000.0 * ceilings.launch_floor_ms, 1) << " us (measured now)\n\n";
  Table table({"method", "time ms", "GB/s", "% theoretical", "% copy", "verdict"});
  DriverResults results("00-measuring", device, ceilings);
  const ResultCase input{"n" + std::to_string(n), std::to_string(n) + " floats"};
  const auto row = [&](const std::string& id, const std::string& method, double ms, const std::string& note) {
    const double gbps = gb_per_s(bytes, ms);
    std::string verdict = note;
    if (ms <= 0.0) verdict = "no time measured (finish the TODO)";
    else if (gbps > 1.02 * ceilings.theoretical_gbps) verdict = "IMPOSSIBLE: faster than the memory can go";
    table.add_row({method, fixed(ms, 4), fixed(gbps, 1), fixed(percent_of(gbps, ceilings.theoretical_gbps), 1),
                   fixed(percent_of(gbps, ceilings.device_copy_gbps), 1), verdict});
    results.add({input, id, method, ms, gbps, valid});
  };
  row("host-first-launch", "host clock, first launch", cold_ms, "includes module load and first use");
  row("host-no-sync", "host clock, no synchronize", no_sync_ms, "times the launch, not the kernel");
  row("host-sync", "host clock + cudaDeviceSynchronize", sync_ms, "kernel + launch and sync overhead");
  row("events", "CUDA events (elapsed_ms_with_events)", events_ms, "the kernel on the GPU's clock");
  table.print(std::cout);
  results.save(json_path);
  return valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 00: SAXPY timed with the host clock and with CUDA events"};
  std::size_t n = std::size_t{1} << 27;  // 512 MiB per array: many times any GPU's L2
  int reps = 20;
  std::string json_path;
  app.add_option("--n", n, "elements per array")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 34))
      ->capture_default_str();
  app.add_option("--reps", reps, "timed repetitions")->check(CLI::Range(1, 100000))->capture_default_str();
  add_json_option(app, json_path);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  return run_driver("00-measuring", [&] { return experiment(n, reps, json_path); });
}
