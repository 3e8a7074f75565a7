// Lesson 07 - reductions, scans and histograms: the experiment. The sum of 1 GiB of unsigned values
// (a shared-memory tree, warp shuffles, one atomic per block), its exclusive scan (reduce-then-scan,
// decoupled look-back), both against CUB in the same run and against the device's read bandwidth, and
// the byte histogram of E. coli (4 letters: every atomic lands on one of four counters) and of uniform
// bytes, with global atomics and with block-privatized shared-memory atomics.
//
//   ./build/default/bin/07-reductions [--mib N] [--hist-mib N] [--reps N] [--warmup N] [--json FILE]
#include <cstring>
#include <functional>
#include <iostream>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/buffers.hpp"
#include "common/ceilings.hpp"
#include "common/cli_parse.hpp"
#include "common/corpus.hpp"
#include "common/cuda_check.hpp"
#include "common/driver.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/results_json.hpp"
#include "common/table.hpp"
#include "reductions.hpp"

using namespace cudamatch;
using namespace cudamatch::lesson07;

namespace {

struct Version {
  std::string id;     // the row's id in the results file
  std::string label;  // what the table prints
  std::function<void(cudaStream_t)> run;
};

// Times every version of one case after checking it, and checks it again after timing (the output was
// poisoned before every run); the first version is the reference whose time the others are held to.
class CaseRunner {
 public:
  CaseRunner(const RunContext& context, DriverResults& results, Table& table, TimingOptions timing)
      : context_(context), results_(results), table_(table), timing_(timing) {}

  // `check(when)` validates the output of the last run; `poison(stream)` spoils it before each run.
  // Returns whether every version was right; `ratios` gets each version's GB/s.
  bool run(const ResultCase& input, const std::vector<Version>& versions, std::uint64_t bytes,
           const std::function<bool(const Version&, const char*)>& check,
           const std::function<void(cudaStream_t)>& poison, const L2Flush& flush, std::vector<double>& gbps) {
    bool all_valid = true;
    double reference_ms = 0.0;
    TimingOptions timing = timing_;
    timing.before_each = [&](cudaStream_t s) {
      poison(s);
      flush.enqueue(s);
    };
    for (const Version& v : versions) {
      poison(nullptr);
      v.run(nullptr);
      const bool valid_before = check(v, "before");
      const TimingStats t = time_on_gpu(v.run, timing);
      const bool valid = check(v, "after") && valid_before;
      const double rate = gb_per_s(bytes, t.median_ms);
      if (reference_ms == 0.0) reference_ms = t.median_ms;
      const double vs_reference = t.median_ms > 0.0 ? reference_ms / t.median_ms : 0.0;
      results_.add(ResultRow{input, v.id, v.label, t.median_ms, rate, valid});
      table_.add_row({input.label, v.label, fixed(t.median_ms, 4), fixed(rate, 1),
                      fixed(percent_of(rate, context_.ceilings.device_read_gbps), 1),
                      fixed(percent_of(rate, context_.ceilings.device_copy_gbps), 1), fixed(vs_reference, 2),
                      valid ? "" : "WRONG"});
      gbps.push_back(rate);
      all_valid = all_valid && valid;
    }
    return all_valid;
  }

 private:
  const RunContext& context_;
  DriverResults& results_;
  Table& table_;
  TimingOptions timing_;
};

std::vector<unsigned> random_values(std::size_t n, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<unsigned> values(n);
  for (std::size_t i = 0; i + 1 < n; i += 2) {
    const std::uint64_t r = rng.next();
    values[i] = static_cast<unsigned>(r);
    values[i + 1] = static_cast<unsigned>(r >> 32);
  }
  if (n % 2 == 1) values[n - 1] = static_cast<unsigned>(rng.next());
  return values;
}

int experiment(std::size_t mib, std::size_t hist_mib, TimingOptions timing, const std::string& json_path) {
  const RunContext context = measure_run_context(std::cout);
  const Ceilings& c = context.ceilings;
  const L2Flush flush(context.device);
  DriverResults results("07-reductions", context.device, c);
  Table table({"case", "version", "median ms", "GB/s", "% of read", "% of copy", "x first row", "note"});
  CaseRunner runner(context, results, table, timing);
  bool all_valid = true;

  // ---- the sum and the scan of `mib` MiB of unsigned values ----
  const std::size_t n = mib * kMiB / sizeof(unsigned);
  const std::vector<unsigned> in = random_values(n, 7);
  unsigned expected_sum = 0;
  std::vector<unsigned> expected_scan(n);
  for (std::size_t i = 0; i < n; ++i) {
    expected_scan[i] = expected_sum;
    expected_sum += in[i];
  }
  DeviceBuffer<unsigned> din(n), dout(n), dsum(1), partials(reduce_scratch_elements());
  DeviceBuffer<std::uint8_t> scan_scratch(scan_scratch_bytes(n));
  const std::size_t cub_bytes = cub_temp_bytes(n);
  DeviceBuffer<std::uint8_t> cub_temp(cub_bytes);
  din.upload(in.data(), n);

  const auto reduce_with = [&](ReduceVersion version) {
    return [&, version](cudaStream_t s) { reduce_sum(version, din.data(), n, dsum.data(), partials.data(), s); };
  };
  const std::vector<Version> sums = {
      {"cub", "CUB DeviceReduce::Sum",
       [&](cudaStream_t s) { cub_sum(din.data(), n, dsum.data(), cub_temp.data(), cub_bytes, s); }},
      {"tree", "shared-memory tree, 2 launches", reduce_with(ReduceVersion::tree)},
      {"shuffle", "warp shuffles, 2 launches", reduce_with(ReduceVersion::shuffle)},
      {"atomic", "shuffles + 1 atomic per block", reduce_with(ReduceVersion::atomic)}};
  const auto check_sum = [&](const Version& v, const char* when) {
    unsigned sum = 0;
    dsum.download(&sum, 1);
    if (sum != expected_sum)
      std::cerr << v.label << ": sum " << sum << ", expected " << expected_sum << ' ' << when << " timing\n";
    return sum == expected_sum;
  };
  std::vector<double> sum_gbps;
  const std::string size = std::to_string(mib) + "mib";
  all_valid &= runner.run(
      {"sum-" + size, "sum of " + std::to_string(mib) + " MiB"}, sums, static_cast<std::uint64_t>(n) * sizeof(unsigned),
      check_sum, [&](cudaStream_t s) { CUDA_CHECK(cudaMemsetAsync(dsum.data(), 0xA5, sizeof(unsigned), s)); }, flush,
      sum_gbps);

  const std::vector<Version> scans = {
      {"cub", "CUB DeviceScan::ExclusiveSum",
       [&](cudaStream_t s) { cub_exclusive_sum(din.data(), dout.data(), n, cub_temp.data(), cub_bytes, s); }},
      {"reduce-then-scan", "reduce-then-scan, 3 launches",
       [&](cudaStream_t s) {
         exclusive_scan(ScanVersion::reduce_then_scan, din.data(), dout.data(), n, scan_scratch.data(), s);
       }},
      {"look-back", "decoupled look-back, 1 launch", [&](cudaStream_t s) {
         exclusive_scan(ScanVersion::look_back, din.data(), dout.data(), n, scan_scratch.data(), s);
       }}};
  std::vector<unsigned> scanned(n);
  const auto check_scan = [&](const Version& v, const char* when) {
    dout.download(scanned.data(), n);
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) wrong += scanned[i] != expected_scan[i];
    if (wrong != 0) std::cerr << v.label << ": " << wrong << " wrong elements " << when << " timing\n";
    return wrong == 0;
  };
  std::vector<double> scan_gbps;
  all_valid &= runner.run(
      {"scan-" + size, "exclusive scan of " + std::to_string(mib) + " MiB"}, scans,
      2 * static_cast<std::uint64_t>(n) * sizeof(unsigned), check_scan,
      [&](cudaStream_t s) { CUDA_CHECK(cudaMemsetAsync(dout.data(), 0xA5, n * sizeof(unsigned), s)); }, flush,
      scan_gbps);

  // ---- the byte histograms ----
  const std::size_t hist_bytes = hist_mib * kMiB;
  const Corpus ecoli = load_corpus("E.coli", default_data_dir(), &std::cerr);
  // The uniform case's rows have ids of their own (uniform-...), so that the rubric's histogram item
  // holds the skewed case alone.
  struct HistogramInput {
    std::string id, label, row_prefix;
    std::vector<std::uint8_t> bytes;
  };
  std::vector<HistogramInput> inputs;
  inputs.push_back({"histogram-e-coli-" + std::to_string(hist_mib) + "mib",
                    "histogram, E.coli" + std::string(ecoli.synthetic ? " (synthetic)" : "") + " x " +
                        std::to_string(hist_mib) + " MiB",
                    "", repeat_to(ecoli.bytes, hist_bytes)});
  inputs.push_back({"histogram-uniform-" + std::to_string(hist_mib) + "mib",
                    "histogram, uniform bytes x " + std::to_string(hist_mib) + " MiB", "uniform-",
                    random_bytes(hist_bytes, 256, 11)});
  DeviceBuffer<std::uint8_t> dbytes(hist_bytes);
  DeviceBuffer<unsigned> dbins(256);
  std::vector<double> speedups;
  for (const HistogramInput& input : inputs) {
    std::vector<unsigned> expected(256, 0), bins(256);
    for (std::uint8_t b : input.bytes) ++expected[b];
    dbytes.upload(input.bytes.data(), hist_bytes);
    const auto histogram_with = [&](HistogramVersion version) {
      return [&, version](cudaStream_t s) { histogram_bytes(version, dbytes.data(), hist_bytes, dbins.data(), s); };
    };
    const std::vector<Version> histograms = {{input.row_prefix + "global-atomics", "global atomics, 1 per byte",
                                              histogram_with(HistogramVersion::global_atomics)},
                                             {input.row_prefix + "privatized", "shared atomics, privatized per block",
                                              histogram_with(HistogramVersion::privatized)}};
    const auto check_bins = [&](const Version& v, const char* when) {
      dbins.download(bins.data(), 256);
      if (bins != expected) std::cerr << v.label << ": wrong counts " << when << " timing\n";
      return bins == expected;
    };
    std::vector<double> gbps;
    all_valid &= runner.run(
        {input.id, input.label}, histograms, hist_bytes, check_bins,
        [&](cudaStream_t s) { CUDA_CHECK(cudaMemsetAsync(dbins.data(), 0xA5, 256 * sizeof(unsigned), s)); }, flush,
        gbps);
    speedups.push_back(gbps[0] > 0.0 ? gbps[1] / gbps[0] : 0.0);
  }

  std::cout << "\n"
            << n << " unsigned values (" << mib << " MiB); sums modulo 2^32. Bytes moved: 4 per element for the sum, "
            << "8 for the scan (read + write), 1 per byte for the histogram. 'x first row': the first row's median "
               "time over this row's (CUB for the sum and the scan).\n\n";
  table.print(std::cout);
  std::cout << "\nsum, 1 atomic per block: " << fixed(percent_of(sum_gbps[3], c.device_read_gbps), 1)
            << "% of the device read bandwidth, " << fixed(percent_of(sum_gbps[3], sum_gbps[0]), 1) << "% of CUB\n"
            << "scan, decoupled look-back: " << fixed(percent_of(scan_gbps[2], c.device_read_gbps), 1)
            << "% of the device read bandwidth (" << fixed(percent_of(scan_gbps[2], c.device_copy_gbps), 1)
            << "% of copy), " << fixed(percent_of(scan_gbps[2], scan_gbps[0]), 1) << "% of CUB\n"
            << "privatized histogram over global atomics: " << fixed(speedups[0], 1) << "x on E.coli, "
            << fixed(speedups[1], 1) << "x on uniform bytes\n";
  if (!json_path.empty()) results.save(json_path);
  return all_valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 07: reductions, scans and byte histograms against CUB and the read bandwidth"};
  std::size_t mib = 1024, hist_mib = 256;
  TimingOptions timing;
  std::string json_path;
  app.add_option("--mib", mib, "MiB of unsigned values to sum and scan")
      ->check(CLI::Range(1, 4096))
      ->capture_default_str();
  app.add_option("--hist-mib", hist_mib, "MiB of bytes to count")->check(CLI::Range(1, 4096))->capture_default_str();
  app.add_option("--reps", timing.reps, "timed repetitions")->check(CLI::Range(1, 100000))->capture_default_str();
  app.add_option("--warmup", timing.warmup, "untimed runs first")->check(CLI::Range(0, 1000))->capture_default_str();
  add_json_option(app, json_path);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  return run_driver("07-reductions", [&] { return experiment(mib, hist_mib, timing, json_path); });
}
