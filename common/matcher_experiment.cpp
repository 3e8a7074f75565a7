#include "common/matcher_experiment.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/ceilings.hpp"
#include "common/cli_parse.hpp"
#include "common/corpus.hpp"
#include "common/device_rotation.hpp"
#include "common/driver.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/results_json.hpp"
#include "common/rotated_text.hpp"
#include "common/seed.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"

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
  SeedOptions seed;                   // --seed N, --seed-stdin
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

// The timed calls of each corpus, length and version, each on its own fresh input.
std::size_t timed_calls(const Options& o) { return o.patterns * static_cast<std::size_t>(o.reps); }

// Occurrences broken in each fresh text (FreshInputs::next).
constexpr std::size_t kBrokenOccurrences = 8;

// One search input that no code has seen: a fresh rotation of the corpus in the device text, and a
// pattern drawn from a random position of that text.
struct FreshInput {
  std::size_t rotation = 0;    // the text is text[i] = corpus[(rotation + i) mod L]
  std::size_t pattern_at = 0;  // the pattern is text[pattern_at, pattern_at + m)
  std::vector<std::uint8_t> pattern;
  std::vector<ByteEdit> edits;  // bytes changed after the rotation, each inside an occurrence
  std::uint64_t expected = 0;   // its count in the text, from the corpus's period (common/rotated_text.hpp)
};

// The inputs of one corpus: every one is written into the same device text, so that a result kept
// from an earlier search of that address is stale.
class FreshInputs {
 public:
  FreshInputs(const std::vector<std::uint8_t>& corpus, std::size_t text_bytes, const DeviceInfo& device, Rng& rng)
      : corpus_(corpus), device_(corpus, text_bytes, device), rng_(rng) {}

  // Rewrites the text at a random rotation, draws a pattern of m bytes from it, and breaks a few of the
  // pattern's occurrences (so the text is not periodic: counting one period and multiplying is wrong).
  // When this returns the text is written and none of it is left in the L2 cache.
  FreshInput next(std::size_t m) {
    FreshInput input;
    input.rotation = static_cast<std::size_t>(rng_.below(corpus_.size));
    const std::size_t text_bytes = device_.text_bytes();
    input.pattern_at = static_cast<std::size_t>(rng_.below(m <= text_bytes ? text_bytes - m + 1 : 1));
    input.pattern = cyclic_bytes(corpus_, input.rotation + input.pattern_at, m);
    const CyclicOccurrences occurrences(corpus_, input.pattern);
    input.edits =
        breaking_edits(corpus_, occurrences, input.pattern, input.rotation, text_bytes, kBrokenOccurrences, rng_);
    input.expected = count_after_edits(corpus_, occurrences, input.pattern, input.rotation, text_bytes, input.edits);
    device_.rewrite(input.rotation, input.edits);
    device_.flush_l2();
    return input;
  }

  const DeviceText& text() const { return device_.text(); }
  std::size_t text_bytes() const { return device_.text_bytes(); }

 private:
  ByteView corpus_;
  FreshDeviceText device_;
  Rng& rng_;
};

// One count-mode search by `version` on a fresh input, between its own events; returns its time. A
// count other than the expected one clears `valid` and is reported on stderr as `call`.
double search_fresh(const GpuVersion& version, FreshInputs& inputs, std::size_t m, const std::string& call,
                    bool& valid) {
  const FreshInput input = inputs.next(m);
  const DevicePattern pattern(input.pattern);
  std::uint64_t count = 0;
  const double ms = time_once_on_gpu([&](cudaStream_t s) { count = gpu_count(version, inputs.text(), pattern, s); });
  if (count != input.expected) {
    std::cerr << call << ": counted " << count << ", expected " << input.expected << " (rotation " << input.rotation
              << ", pattern at " << input.pattern_at << ")\n";
    valid = false;
  }
  return ms;
}

struct VersionRun {
  double median_ms = 0.0;  // over every timed call
  bool valid = true;       // every call, the warm-up's included, counted right
};

// The warm-up on an untimed input, then `calls` timed calls, each on a fresh input.
VersionRun run_version(const GpuVersion& version, FreshInputs& inputs, std::size_t m, std::size_t calls,
                       const std::string& label) {
  VersionRun run;
  search_fresh(version, inputs, m, label + ": " + version.name + " (warm-up call)", run.valid);
  std::vector<double> samples;
  for (std::size_t c = 1; c <= calls; ++c) {
    const std::string call =
        label + ": " + version.name + " (timed call " + std::to_string(c) + " of " + std::to_string(calls) + ")";
    samples.push_back(search_fresh(version, inputs, m, call, run.valid));
  }
  run.median_ms = median(std::move(samples));
  return run;
}

// Every version at pattern length m: their rows in `results` (case `input`, row ids the version names);
// returns their GB/s, in the versions' order. Clears `valid` when a count was wrong.
std::vector<double> run_length(const GpuAlgorithm& algorithm, const Options& o, FreshInputs& inputs, std::size_t m,
                               const ResultCase& input, DriverResults& results, bool& valid) {
  std::vector<double> gbps;
  for (const GpuVersion& version : algorithm.versions) {
    const VersionRun run = run_version(version, inputs, m, timed_calls(o), input.label);
    gbps.push_back(gb_per_s(inputs.text_bytes(), run.median_ms));
    results.add({input, version.name, version.name, run.median_ms, gbps.back(), run.valid});
    valid = valid && run.valid;
  }
  return gbps;
}

// One table per corpus, and its rows in `results` (case "<corpus id>-m<m>", labelled "<corpus> m=<m>");
// returns whether every count was right.
bool run_corpus(const GpuAlgorithm& algorithm, const Options& o, const std::string& corpus_name,
                const RunContext& context, Rng& rng, DriverResults& results) {
  const Corpus corpus = load_corpus(corpus_name, default_data_dir(), &std::cerr);
  FreshInputs inputs(corpus.bytes, o.mib * kMiB, context.device, rng);
  const double read_ceiling = context.ceilings.device_read_gbps;
  std::vector<std::string> headers = {"m"};
  for (const GpuVersion& v : algorithm.versions) headers.push_back(std::string(v.name) + " GB/s");
  headers.insert(headers.end(), {"best", "best / v0", "best % of read"});
  Table table(headers);
  std::vector<double> speedups;
  double lowest_share = 1e9;
  bool valid = true;
  for (std::size_t m : o.lengths) {
    const ResultCase input{result_id_of(corpus_name) + "-m" + std::to_string(m),
                           corpus_name + " m=" + std::to_string(m)};
    const std::vector<double> gbps = run_length(algorithm, o, inputs, m, input, results, valid);
    std::vector<std::string> cells = {std::to_string(m)};
    for (double rate : gbps) cells.push_back(fixed(rate, 1));
    const auto best = std::max_element(gbps.begin(), gbps.end());
    speedups.push_back(*best / gbps.front());
    lowest_share = std::min(lowest_share, percent_of(*best, read_ceiling));
    cells.push_back(algorithm.versions[static_cast<std::size_t>(best - gbps.begin())].name);
    cells.push_back(fixed(speedups.back(), 2) + "x");
    cells.push_back(fixed(percent_of(*best, read_ceiling), 1));
    table.add_row(cells);
  }
  std::cout
      << "\n"
      << corpus_name << (corpus.synthetic ? " (SYNTHETIC stand-in)" : "") << " repeated to " << o.mib
      << " MiB, count mode (result read back), GB/s of text: median of " << timed_calls(o)
      << " timed calls per version and length, each on a fresh rotation of the text with a fresh pattern from it\n";
  table.print(std::cout);
  std::cout << "best / v0, median over m: " << fixed(median(speedups), 2)
            << "x; lowest best % of read: " << fixed(lowest_share, 1) << "%\n";
  return valid;
}

int experiment(const char* lesson, const GpuAlgorithm& algorithm, const Options& o, std::uint64_t seed) {
  const RunContext context = measure_run_context(std::cout);
  DriverResults results(lesson, context.device, context.ceilings);
  std::cout << "\nversions:\n";
  for (const GpuVersion& v : algorithm.versions) std::cout << "  " << v.name << "  " << v.summary << "\n";
  std::cout << "inputs: "
            << (o.seed.from_stdin ? std::string("seed from standard input") : "seed " + std::to_string(seed)) << "\n";
  Rng rng(seed);
  bool valid = true;
  for (const std::string& corpus : o.corpora) valid = run_corpus(algorithm, o, corpus, context, rng, results) && valid;
  results.save(o.json);
  return valid ? 0 : 1;
}

}  // namespace

int run_matcher_experiment(const char* lesson, const GpuAlgorithm& algorithm, int argc, char** argv) {
  CLI::App app{std::string("Lesson ") + lesson + ": " + algorithm_name(algorithm.algorithm) +
               " on the GPU, every version on large device-resident texts"};
  Options o;
  add_mib_option(app, o.mib);
  add_lengths_option(app, o.lengths, std::size_t{1} << 20);
  add_corpora_options(app, o.corpora, o.patterns, 10000, " and version");
  app.add_option("--reps", o.reps, "timed calls per pattern (each on a fresh text and pattern: patterns x reps in all)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--versions", o.versions, "versions to run besides the baseline v0 (default: all), e.g. v3")
      ->delimiter(',');
  add_json_option(app, o.json);
  add_seed_options(app, o.seed);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  const std::optional<std::uint64_t> seed = resolve_seed(o.seed, std::cin, std::cerr, lesson);
  if (!seed) return 2;
  for (const std::string& name : o.corpora) {
    if (find_corpus_spec(name) == nullptr) {
      std::cerr << lesson << ": " << unknown_corpus_text(name) << "\n";
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
  return run_driver(lesson, [&] { return experiment(lesson, *selected, o, *seed); });
}

}  // namespace cudamatch
