// Lesson 08 - constant memory: the experiment. One small read-only array in constant, shared or global
// memory, in the case constant memory is built for and in the case it serialises:
//   broadcast: counting a pattern in a DNA text (brute force): all threads of a warp read pattern[j]
//              at the same j, one address per warp;
//   divergent: summing table[b] over the bytes b of a text: a warp reads up to 32 different entries
//              at once (random bytes: about 30; DNA: at most 4).
// Every version is checked against the CPU before and after timing; the figures are GB/s of text read,
// and their share of the device read bandwidth measured in the same run.
//
//   ./build/default/bin/08-constant-memory [--mib 256] [--m 16] [--cases match,lookup] [--reps N] [--warmup N]
//                                          [--json FILE]
#include <algorithm>
#include <cstdint>
#include <functional>
#include <iostream>
#include <string>
#include <tuple>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/brute_force.hpp"
#include "common/buffers.hpp"
#include "common/cli_parse.hpp"
#include "common/driver.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/results_json.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "constant_memory.hpp"

using namespace cudamatch;

namespace {

// The mean number of different table entries that one lookup instruction of a warp reads: lane t of the
// warp looks up byte 16 t + k of a 512-byte stretch in step k (the kernels' layout), over the first
// `sample` bytes of the text.
double distinct_per_warp_lookup(const std::vector<std::uint8_t>& text, std::size_t sample) {
  const std::size_t stretches = std::min(sample, text.size()) / 512;
  std::uint64_t distinct = 0;
  for (std::size_t w = 0; w < stretches; ++w) {
    for (unsigned k = 0; k < 16; ++k) {
      bool seen[256] = {};
      for (unsigned lane = 0; lane < 32; ++lane) {
        const std::uint8_t b = text[512 * w + 16 * lane + k];
        distinct += !seen[b];
        seen[b] = true;
      }
    }
  }
  return stretches == 0 ? 0.0 : static_cast<double>(distinct) / (16.0 * static_cast<double>(stretches));
}

struct Version {
  std::string id;  // constant, shared, global
  std::string label;
  std::function<void(cudaStream_t)> run;  // writes its result to the case's device word
};

struct Case {
  ResultCase input;
  std::string what;  // the table's description of the case
  std::vector<Version> versions;
  std::uint64_t expected = 0;
};

struct Options {
  std::size_t mib = 256;
  unsigned m = 16;
  std::vector<std::string> cases = {"match", "lookup"};  // the broadcast case, the divergent cases
  TimingOptions timing;
  std::string json_path;
};

bool wants(const Options& o, const std::string& name) {
  return std::find(o.cases.begin(), o.cases.end(), name) != o.cases.end();
}

int experiment(const Options& o) {
  const std::size_t mib = o.mib;
  const unsigned m = o.m;
  const TimingOptions& timing = o.timing;
  const RunContext context = measure_run_context(std::cout);
  const std::size_t n = mib * kMiB;
  const double read_gbps = context.ceilings.device_read_gbps;

  const std::vector<std::uint8_t> dna = random_dna(n, 8);
  const std::vector<std::uint8_t> bytes = wants(o, "lookup") ? random_bytes(n, 256, 9) : std::vector<std::uint8_t>(n);
  const std::vector<std::uint8_t> pattern(dna.begin() + static_cast<std::ptrdiff_t>(n / 3),
                                          dna.begin() + static_cast<std::ptrdiff_t>(n / 3 + m));
  std::vector<std::uint32_t> table(kTableSize);
  Rng rng(10);
  for (auto& entry : table) entry = static_cast<std::uint32_t>(rng.next());
  const auto cpu_sum = [&](const std::vector<std::uint8_t>& text) {
    std::uint64_t total = 0;
    for (const std::uint8_t b : text) total += table[b];
    return total;
  };

  DeviceBuffer<std::uint8_t> d_dna(n), d_bytes(n), d_pattern(m);
  DeviceBuffer<std::uint32_t> d_table(kTableSize);
  DeviceBuffer<unsigned long long> d_result(1);
  d_dna.upload(dna.data(), n);
  d_bytes.upload(bytes.data(), n);
  d_pattern.upload(pattern.data(), m);
  d_table.upload(table.data(), kTableSize);
  set_constant_pattern(pattern.data(), m);
  set_constant_table(table.data());
  unsigned long long* result = d_result.data();

  const std::string ms = "m" + std::to_string(m);
  std::vector<Case> cases;
  if (wants(o, "match")) {
    cases.push_back({{"match-dna-" + ms, "match, DNA, m=" + std::to_string(m)},
                     "broadcast: every warp reads pattern[j], one address",
                     {{"constant", "pattern in constant",
                       [&](cudaStream_t s) { count_matches_constant(d_dna.data(), n, m, result, s); }},
                      {"shared", "pattern in shared",
                       [&](cudaStream_t s) { count_matches_shared(d_dna.data(), n, d_pattern.data(), m, result, s); }},
                      {"global", "pattern in global",
                       [&](cudaStream_t s) { count_matches_global(d_dna.data(), n, d_pattern.data(), m, result, s); }}},
                     brute_force_count(dna, pattern)});
  }
  for (const auto& [id, label, text, device_text] :
       {std::make_tuple("lookup-bytes", "lookup, random bytes", &bytes, &d_bytes),
        std::make_tuple("lookup-dna", "lookup, DNA", &dna, &d_dna)}) {
    if (!wants(o, "lookup")) break;
    const std::uint8_t* d_text = device_text->data();
    cases.push_back(
        {{id, label},
         "divergent: " + fixed(distinct_per_warp_lookup(*text, 1 << 24), 1) + " different entries per warp lookup",
         {{"constant", "table in constant", [&, d_text](cudaStream_t s) { lookup_sum_constant(d_text, n, result, s); }},
          {"shared", "table in shared",
           [&, d_text](cudaStream_t s) { lookup_sum_shared(d_text, n, d_table.data(), result, s); }},
          {"global", "table in global",
           [&, d_text](cudaStream_t s) { lookup_sum_global(d_text, n, d_table.data(), result, s); }}},
         cpu_sum(*text)});
  }

  DriverResults results("08-constant-memory", context.device, context.ceilings);
  Table printed({"case", "version", "median ms", "GB/s", "% of read", "vs shared"});
  bool all_valid = true;
  for (const Case& c : cases) {
    std::cout << "\n" << c.input.label << ": " << c.what;
    const auto check = [&](const Version& v, const char* when) {
      unsigned long long got = 0;
      d_result.download(&got, 1);
      if (got != c.expected) {
        std::cerr << "\n"
                  << c.input.label << ", " << v.label << ": " << got << " instead of " << c.expected << ' ' << when
                  << " timing";
      }
      return got == c.expected;
    };
    std::vector<TimingStats> times;
    std::vector<bool> valid;
    for (const Version& v : c.versions) {
      d_result.fill_bytes(0xFF);
      v.run(nullptr);
      CUDA_CHECK(cudaDeviceSynchronize());
      const bool before = check(v, "before");
      TimingOptions poisoned = timing;
      poisoned.before_each = [&](cudaStream_t s) { CUDA_CHECK(cudaMemsetAsync(result, 0xFF, 8, s)); };
      times.push_back(time_on_gpu(v.run, poisoned));
      valid.push_back(check(v, "after") && before);
      all_valid = all_valid && valid.back();
    }
    const double shared_ms = times[1].median_ms;
    for (std::size_t i = 0; i < c.versions.size(); ++i) {
      const Version& v = c.versions[i];
      const double gbps = gb_per_s(n, times[i].median_ms);
      results.add({c.input, v.id, v.label, times[i].median_ms, gbps, static_cast<bool>(valid[i])});
      printed.add_row({c.input.label, v.label, fixed(times[i].median_ms, 4), fixed(gbps, 1),
                       fixed(percent_of(gbps, read_gbps), 1), fixed(shared_ms / times[i].median_ms, 3)});
    }
  }
  std::cout << "\n\n"
            << mib << " MiB texts, GB/s of text read, median of " << timing.reps
            << " runs; % of the device read bandwidth measured now (" << fixed(read_gbps, 0) << " GB/s)\n";
  printed.print(std::cout);
  results.save(o.json_path);
  if (!all_valid) std::cerr << "a result disagrees with the CPU\n";
  return all_valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 08: a pattern and a table in constant, shared and global memory"};
  Options o;
  add_mib_option(app, o.mib);
  app.add_option("--m", o.m, "pattern length")->check(CLI::Range(1u, kMaxPattern))->capture_default_str();
  app.add_option("--cases", o.cases, "match (the broadcast case), lookup (the divergent cases)")
      ->delimiter(',')
      ->check(CLI::IsMember({"match", "lookup"}))
      ->capture_default_str();
  app.add_option("--reps", o.timing.reps, "timed repetitions")->check(CLI::Range(1, 100000))->capture_default_str();
  app.add_option("--warmup", o.timing.warmup, "untimed runs first")->check(CLI::Range(0, 1000))->capture_default_str();
  add_json_option(app, o.json_path);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  return run_driver("08-constant-memory", [&] { return experiment(o); });
}
