#include "common/matcher_experiment.hpp"

#include <algorithm>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/cli_parse.hpp"
#include "common/corpus.hpp"
#include "common/driver.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/results_json.hpp"
#include "common/table.hpp"

namespace cudamatch {

namespace {

struct Options {
  std::size_t mib = 1024;
  std::vector<std::size_t> lengths = {2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  std::vector<std::string> corpora = {"E.coli", "bible.txt"};
  std::size_t patterns = 5;
  int reps = 3;
  std::vector<std::string> versions;  // besides v0, which always runs (the baseline); empty: all
  std::string json;                   // --json FILE
};

// The baseline v0 and the versions `names` lists (all when it is empty), in the algorithm's order.
// Throws std::invalid_argument naming a version that does not exist.
GpuAlgorithm selected_versions(const GpuAlgorithm& algorithm, const std::vector<std::string>& names) {
  for (const std::string& name : names) {
    if (std::none_of(algorithm.versions.begin(), algorithm.versions.end(),
                     [&](const GpuVersion& v) { return v.name == name; })) {
      throw std::invalid_argument("--versions: no version '" + name + "' (the versions are v0 to v" +
                       std::to_string(algorithm.versions.size() - 1) + ")");
    }
  }
  GpuAlgorithm selected{algorithm.algorithm, {}};
  for (const GpuVersion& v : algorithm.versions) {
    if (&v == &algorithm.versions.front() || names.empty() ||
        std::find(names.begin(), names.end(), v.name) != names.end()) {
      selected.versions.push_back(v);
    }
  }
  return selected;
}

double median(std::vector<double> values) { return summarize_ms(std::move(values)).median_ms; }

// One table per corpus, and its rows in `results` (case "<corpus> m=<m>"); returns whether every
// count agreed with the CPU.
bool run_corpus(const GpuAlgorithm& algorithm, const Options& o, const std::string& corpus_name, double read_ceiling,
                const TimingOptions& timing, DriverResults& results) {
  const Corpus corpus = load_corpus(corpus_name, default_data_dir(), &std::cerr);
  const std::vector<std::uint8_t> host = repeat_to(corpus.bytes, o.mib * kMiB);
  const DeviceText text(host);
  std::vector<std::string> headers = {"m"};
  for (const GpuVersion& v : algorithm.versions) headers.push_back(v.name + " GB/s");
  headers.insert(headers.end(), {"best", "best / v0", "best % of read"});
  Table table(headers);
  std::vector<double> speedups;
  double lowest_share = 1e9;
  bool valid = true;
  Rng rng(77);
  for (std::size_t m : o.lengths) {
    std::vector<std::vector<double>> samples(algorithm.versions.size());
    std::vector<bool> version_valid(algorithm.versions.size(), true);
    for (std::size_t p = 0; p < o.patterns; ++p) {
      const std::size_t at = rng.below(corpus.bytes.size() - m + 1);
      const ByteView pattern_view(corpus.bytes.data() + at, m);
      const DevicePattern pattern(pattern_view);
      // The oracle: the fastest CPU matcher for m (tested against brute force on 100,000 cases).
      const Algorithm oracle = m < 16 ? Algorithm::epsm : Algorithm::ssef;
      const std::uint64_t expected = make_cpu_matcher(oracle, pattern_view)->count(host);
      for (std::size_t v = 0; v < algorithm.versions.size(); ++v) {
        const GpuVersion& version = algorithm.versions[v];
        bool ok = gpu_count(version, text, pattern) == expected;
        samples[v].push_back(
            time_on_gpu([&](cudaStream_t s) { gpu_count(version, text, pattern, s); }, timing).median_ms);
        ok = ok && gpu_count(version, text, pattern) == expected;
        if (!ok) std::cerr << corpus_name << " m=" << m << ": " << version.name << " disagrees with the CPU\n";
        version_valid[v] = version_valid[v] && ok;
      }
    }
    std::vector<std::string> cells = {std::to_string(m)};
    std::vector<double> gbps;
    for (std::size_t v = 0; v < samples.size(); ++v) {
      const double median_ms = median(samples[v]);
      gbps.push_back(gb_per_s(host.size(), median_ms));
      cells.push_back(fixed(gbps.back(), 1));
      results.add({corpus_name + " m=" + std::to_string(m), algorithm.versions[v].name, median_ms, gbps.back(),
                   version_valid[v]});
      valid = valid && version_valid[v];
    }
    const auto best = std::max_element(gbps.begin(), gbps.end());
    speedups.push_back(*best / gbps.front());
    lowest_share = std::min(lowest_share, percent_of(*best, read_ceiling));
    cells.push_back(algorithm.versions[static_cast<std::size_t>(best - gbps.begin())].name);
    cells.push_back(fixed(speedups.back(), 2) + "x");
    cells.push_back(fixed(percent_of(*best, read_ceiling), 1));
    table.add_row(cells);
  }
  std::cout << "\n" << corpus_name << (corpus.synthetic ? " (SYNTHETIC stand-in)" : "") << " repeated to " << o.mib
            << " MiB, count mode (result read back), GB/s of text: median over " << o.patterns
            << " patterns of the median of " << o.reps << " runs\n";
  table.print(std::cout);
  std::cout << "best / v0, median over m: " << fixed(median(speedups), 2) << "x; lowest best % of read: "
            << fixed(lowest_share, 1) << "%\n";
  return valid;
}

int experiment(const char* lesson, const GpuAlgorithm& algorithm, const Options& o) {
  const RunContext context = measure_run_context(std::cout);
  DriverResults results(lesson, context.device, context.ceilings);
  std::cout << "\nversions:\n";
  for (const GpuVersion& v : algorithm.versions) std::cout << "  " << v.name << "  " << v.summary << "\n";
  TimingOptions timing;
  timing.warmup = 1;
  timing.warmup_min_ms = 0.0;  // the GPU is warm: the ceilings just ran
  timing.reps = o.reps;
  bool valid = true;
  for (const std::string& corpus : o.corpora) {
    valid = run_corpus(algorithm, o, corpus, context.ceilings.device_read_gbps, timing, results) && valid;
  }
  results.save(o.json);
  return valid ? 0 : 1;
}

}  // namespace

int run_matcher_experiment(const char* lesson, const GpuAlgorithm& algorithm, int argc, char** argv) {
  CLI::App app{std::string("Lesson ") + lesson + ": " + algorithm_name(algorithm.algorithm) +
               " on the GPU, every version on large device-resident texts"};
  Options o;
  app.add_option("--mib", o.mib, "text size in MiB")->check(CLI::Range(std::size_t{1}, std::size_t{1} << 16))->capture_default_str();
  app.add_option("--lengths", o.lengths, "pattern lengths")->delimiter(',')->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20))->capture_default_str();
  app.add_option("--corpora", o.corpora, "corpora to repeat (bible.txt, E.coli, world192.txt)")->delimiter(',')->capture_default_str();
  app.add_option("--patterns", o.patterns, "patterns per length")->check(CLI::Range(std::size_t{1}, std::size_t{10000}))->capture_default_str();
  app.add_option("--reps", o.reps, "timed runs per pattern")->check(CLI::Range(1, 1000))->capture_default_str();
  app.add_option("--versions", o.versions, "versions to run besides the baseline v0 (default: all), e.g. v3")
      ->delimiter(',');
  add_json_option(app, o.json);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  for (const std::string& name : o.corpora) {
    if (std::none_of(corpus_specs().begin(), corpus_specs().end(), [&](const CorpusSpec& c) { return c.name == name; })) {
      std::cerr << lesson << ": unknown corpus '" << name << "' (bible.txt, E.coli, world192.txt)\n";
      return 2;
    }
  }
  std::optional<GpuAlgorithm> selected;
  try {
    selected = selected_versions(algorithm, o.versions);
  } catch (const std::invalid_argument& e) {
    std::cerr << lesson << ": " << e.what() << "\n";
    return 2;
  }
  return run_driver(lesson, [&] { return experiment(lesson, *selected, o); });
}

}  // namespace cudamatch
