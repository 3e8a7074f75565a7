// Lesson 04 - vectorized loads: the experiment. The same device copy with 4-, 8- and 16-byte
// accesses per thread, against cudaMemcpy device-to-device measured in the same run.
//
//   ./build/default/bin/04-vectorized-loads [--mib M] [--reps N] [--warmup N] [--json FILE]
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/buffers.hpp"
#include "common/cli_parse.hpp"
#include "common/driver.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "vector_copy.hpp"

using namespace cudamatch;

namespace {

struct Version {
  std::string id;  // the row's id in the results file
  std::string name;
  std::function<void(const int*, int*, std::size_t, cudaStream_t)> copy;
  std::string note;
};

int experiment(std::size_t mib, TimingOptions timing, const std::string& json_path) {
  const RunContext context = measure_run_context(std::cout);
  const std::size_t n = mib * kMiB / sizeof(int);
  std::vector<int> host(n);
  Rng rng(4);
  for (auto& v : host) v = static_cast<int>(rng.next());
  DeviceBuffer<int> src(n), dst(n);
  src.upload(host.data(), n);

  const std::vector<Version> versions = {
      {"memcpy", "cudaMemcpy device to device",
       [](const int* s, int* d, std::size_t count, cudaStream_t st) {
         CUDA_CHECK(cudaMemcpyAsync(d, s, count * sizeof(int), cudaMemcpyDeviceToDevice, st));
       },
       "the ceiling"},
      {"int", "int (4 bytes per thread)", copy_int, "LDG.E / STG.E"},
      {"int2", "int2 (8 bytes per thread)", copy_int2, "LDG.E.64 / STG.E.64"},
      {"int4", "int4 (16 bytes per thread)", copy_int4, "LDG.E.128 / STG.E.128"},
  };

  std::vector<int> back(n);
  // check: what the last run wrote; validate: one run into a poisoned destination, checked.
  const auto check = [&](const Version& v, const char* when) {
    dst.download(back.data(), n);
    const bool ok = back == host;
    if (!ok) std::cerr << v.name << ": wrong copy " << when << " timing\n";
    return ok;
  };
  const auto validate = [&](const Version& v, const char* when) {
    dst.fill_bytes(0xA5);
    v.copy(src.data(), dst.data(), n, nullptr);
    return check(v, when);
  };

  // Every timed run copies into a poisoned destination: skipping the work shows in the check after timing.
  timing.before_each = [&](cudaStream_t s) { CUDA_CHECK(cudaMemsetAsync(dst.data(), 0xA5, n * sizeof(int), s)); };
  BandwidthReport report(context, {std::to_string(mib) + "mib", std::to_string(mib) + " MiB"});
  bool all_valid = true;
  for (const Version& v : versions) {
    const bool valid_before = validate(v, "before");
    const TimingStats t = time_on_gpu([&](cudaStream_t s) { v.copy(src.data(), dst.data(), n, s); }, timing);
    const bool valid = check(v, "after") && valid_before;
    report.add(v.id, v.name, t, 2 * static_cast<std::uint64_t>(n) * sizeof(int), valid, v.note);
    all_valid = all_valid && valid;
  }
  std::cout << "copy of " << mib << " MiB (bytes read + written counted), median of " << timing.reps << " runs\n\n";
  report.print(std::cout);
  const double memcpy_gbps = report.gbps("memcpy");
  std::cout << "\nint4 copy: " << fixed(percent_of(report.gbps("int4"), memcpy_gbps), 1)
            << "% of cudaMemcpy; int: " << fixed(percent_of(report.gbps("int"), memcpy_gbps), 1) << "%\n";
  report.save(json_path, "04-vectorized-loads");
  return all_valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 04: device copies with 4-, 8- and 16-byte accesses"};
  std::size_t mib = 1024;
  TimingOptions timing;
  std::string json_path;
  app.add_option("--mib", mib, "MiB to copy")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 16))
      ->capture_default_str();
  app.add_option("--reps", timing.reps, "timed repetitions")->check(CLI::Range(1, 100000))->capture_default_str();
  app.add_option("--warmup", timing.warmup, "untimed runs first")->check(CLI::Range(0, 1000))->capture_default_str();
  add_json_option(app, json_path);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  return run_driver("04-vectorized-loads", [&] { return experiment(mib, timing, json_path); });
}
