// Lesson 18 - multi-pattern search: the experiment. Count-mode searches of a device-resident text (a
// corpus repeated to --mib MiB) for pattern sets of 10 to 100,000 patterns of 8-32 bytes, nine in ten
// drawn from the corpus and one in ten random bytes that do not occur, every version, beside the device
// read bandwidth measured in the same run.
//
// Every call searches input that no code has seen: before each (untimed) the text is rewritten from a
// fresh rotation of the corpus in the same device allocation, a fresh set is drawn and built, and the L2
// cache is emptied; the call (count with its read-back) runs between its own pair of CUDA events, and
// its count of every pattern is checked against the CPU (the corpus's occurrences, by Aho-Corasick,
// repeated over the rotation), the warm-up's before the timed calls and each timed call's. After them,
// each version's find_all on 4 MiB of the corpus is compared with the CPU Aho-Corasick, record by record
// (after, so that the first launch of each kernel, which ncu profiles, is a count of the whole text).
//
//   ./build/default/bin/18-multi-pattern [--mib 1024] [--corpus bible.txt] [--sets 10,100,...]
//       [--reps 3] [--versions v1,v3] [--v0-max 1000] [--seed N | --seed-stdin] [--json FILE]
#include <algorithm>
#include <iostream>
#include <memory>
#include <optional>
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
#include "common/seed.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "multi_gpu.hpp"

using namespace cudamatch;

namespace {

constexpr const char* kLesson = "18-multi-pattern";
constexpr std::size_t kCheckedBytes = 4 * kMiB;  // find_all is compared record by record on this much

struct Options {
  std::size_t mib = 1024;
  std::string corpus = "bible.txt";
  std::vector<std::size_t> sets = {10, 100, 1000, 10000, 100000};
  int reps = 3;
  std::vector<std::string> versions;  // empty: all
  std::size_t v0_max = 1000;          // v0 makes one pass per pattern: larger sets take minutes
  std::string json;
  SeedOptions seed;
};

using Bytes = std::vector<std::uint8_t>;

// `count` patterns of 8 to 32 bytes: nine in ten from random positions of the corpus (read cyclically),
// one in ten random bytes with a byte >= 0x80 (none in a 7-bit corpus: they never match there).
std::vector<Bytes> draw_set(const Bytes& corpus, std::size_t count, Rng& rng) {
  std::vector<Bytes> patterns(count);
  for (Bytes& p : patterns) {
    p.resize(8 + rng.below(25));
    if (rng.below(10) == 0) {
      for (auto& b : p) b = static_cast<std::uint8_t>(rng.next());
      p[rng.below(p.size())] |= 0x80;
    } else {
      const std::size_t at = rng.below(corpus.size());
      for (std::size_t j = 0; j < p.size(); ++j) p[j] = corpus[(at + j) % corpus.size()];
    }
  }
  return patterns;
}

std::vector<ByteView> views(const std::vector<Bytes>& patterns) { return {patterns.begin(), patterns.end()}; }

// The corpus's occurrences, read cyclically: every (c, pattern) with the pattern at corpus[c, c + m)
// mod L, c < L.
class CyclicMatches {
  using Matches = std::vector<PatternMatch>;

 public:
  CyclicMatches(const Bytes& corpus, const std::vector<Bytes>& patterns) : size_(corpus.size()) {
    std::size_t longest = 0;
    for (const Bytes& p : patterns) longest = std::max(longest, p.size());
    Bytes extended(corpus);
    for (std::size_t j = 0; j + 1 < longest; ++j) extended.push_back(corpus[j % corpus.size()]);
    AhoCorasick(views(patterns)).find_all(extended, 0, matches_);
    matches_.erase(
        std::remove_if(matches_.begin(), matches_.end(), [&](const PatternMatch& m) { return m.offset >= size_; }),
        matches_.end());
    for (const Bytes& p : patterns) lengths_.push_back(p.size());
  }

  // The count of each pattern in text[i] = corpus[(rotation + i) mod L], i < n.
  std::vector<std::uint64_t> counts(std::size_t rotation, std::size_t n) const {
    std::vector<std::uint64_t> per_pattern(lengths_.size(), 0);
    for (const PatternMatch& m : matches_) {
      const std::size_t length = lengths_[m.pattern];
      const std::size_t first = (m.offset + size_ - rotation % size_) % size_;  // the first i with it
      if (length <= n && first <= n - length) per_pattern[m.pattern] += 1 + (n - length - first) / size_;
    }
    return per_pattern;
  }

 private:
  std::size_t size_;
  std::vector<std::size_t> lengths_;
  Matches matches_;
};

struct Fresh {
  std::vector<Bytes> patterns;
  std::size_t rotation = 0;
  std::vector<std::uint64_t> expected;
};

// The text, its rewrites and the sets of one run.
class Inputs {
 public:
  Inputs(const Bytes& corpus, std::size_t text_bytes, const DeviceInfo& device, Rng& rng)
      : corpus_(corpus), device_(corpus, text_bytes, device), rng_(rng) {}

  // A fresh set of `count` patterns and a fresh rotation written into the text.
  Fresh next(std::size_t count) {
    Fresh fresh;
    fresh.patterns = draw_set(corpus_, count, rng_);
    fresh.rotation = static_cast<std::size_t>(rng_.below(corpus_.size()));
    fresh.expected = CyclicMatches(corpus_, fresh.patterns).counts(fresh.rotation, device_.text_bytes());
    device_.rewrite(fresh.rotation);
    return fresh;
  }
  // Empties the L2 cache: last before the timed call, after the set's build (whose uploads pass through it).
  void flush_l2() const { device_.flush_l2(); }

  const DeviceText& text() const { return device_.text(); }
  std::size_t text_bytes() const { return device_.text_bytes(); }
  const Bytes& corpus() const { return corpus_; }

 private:
  const Bytes& corpus_;
  FreshDeviceText device_;
  Rng& rng_;
};

// find_all of `version` on the first kCheckedBytes of a rotation of the corpus, against the CPU.
bool find_all_agrees(const GpuMultiVersion& version, const Bytes& corpus, std::size_t count, Rng& rng,
                     const std::string& label) {
  const std::vector<Bytes> patterns = draw_set(corpus, count, rng);
  const std::size_t rotation = static_cast<std::size_t>(rng.below(corpus.size()));
  Bytes text(kCheckedBytes);
  for (std::size_t i = 0; i < text.size(); ++i) text[i] = corpus[(rotation + i) % corpus.size()];
  std::vector<PatternMatch> want, got;
  AhoCorasick(views(patterns)).find_all(text, 0, want);
  version.build(views(patterns), sample_of(corpus), nullptr)->find_all(DeviceText(text), 0, got, nullptr);
  if (got == want) return true;
  std::cerr << label << ": " << version.name << " find_all gave " << got.size() << " records, the CPU " << want.size()
            << (got.size() == want.size() ? " (different ones)" : "") << "\n";
  return false;
}

struct Run {
  double median_ms = 0.0;
  bool valid = true;
};

// The warm-up, then `reps` timed calls, each on a fresh set and text; every count checked.
Run run_version(const GpuMultiVersion& version, Inputs& inputs, std::size_t count, int reps, const std::string& label) {
  Run run;
  std::vector<double> samples;
  for (int call = 0; call <= reps; ++call) {
    const Fresh fresh = inputs.next(count);
    const std::unique_ptr<GpuPatternSet> set =
        version.build(views(fresh.patterns), sample_of(inputs.corpus()), nullptr);
    inputs.flush_l2();
    PatternCounts counts;
    const double ms = time_once_on_gpu([&](cudaStream_t s) { counts = set->count(inputs.text(), 0, s); });
    if (counts.per_pattern != fresh.expected) {
      std::cerr << label << ": " << version.name << (call == 0 ? " (warm-up)" : " (timed call)")
                << " counted wrong (total " << counts.total << "; rotation " << fresh.rotation << ")\n";
      run.valid = false;
    }
    if (call > 0) samples.push_back(ms);
  }
  run.median_ms = summarize_ms(std::move(samples)).median_ms;
  return run;
}

bool selected(const Options& o, const GpuMultiVersion& v, std::size_t count) {
  const bool named = o.versions.empty() || std::find(o.versions.begin(), o.versions.end(), v.name) != o.versions.end();
  return named && (&v != &multi_gpu().baseline() || count <= o.v0_max);
}

int experiment(const Options& o, std::uint64_t seed) {
  const RunContext context = measure_run_context(std::cout);
  DriverResults results(kLesson, context.device, context.ceilings);
  const Corpus corpus = load_corpus(o.corpus, default_data_dir(), &std::cerr);
  Rng rng(seed);
  Inputs inputs(corpus.bytes, o.mib * kMiB, context.device, rng);
  const double read = context.ceilings.device_read_gbps;
  std::cout << "\nversions:\n";
  for (const GpuMultiVersion& v : multi_gpu().versions) std::cout << "  " << v.name << "  " << v.summary << "\n";
  std::cout << "inputs: "
            << (o.seed.from_stdin ? std::string("seed from standard input") : "seed " + std::to_string(seed))
            << "; v0 runs on sets of at most " << o.v0_max << " patterns\n";

  std::vector<std::string> headers = {"patterns"};
  for (const GpuMultiVersion& v : multi_gpu().versions) headers.push_back(std::string(v.name) + " GB/s");
  headers.insert(headers.end(), {"v2 / v1", "best", "best / v0", "best % of read"});
  Table table(headers);
  bool valid = true;
  for (std::size_t count : o.sets) {
    const ResultCase input{result_id_of(o.corpus) + "-p" + std::to_string(count),
                           o.corpus + " " + std::to_string(count) + " patterns"};
    std::vector<std::string> cells = {std::to_string(count)};
    std::vector<std::optional<double>> gbps;
    for (const GpuMultiVersion& v : multi_gpu().versions) {
      if (!selected(o, v, count)) {
        gbps.emplace_back();
        cells.push_back("-");
        continue;
      }
      const Run run = run_version(v, inputs, count, o.reps, input.label);
      const bool right = find_all_agrees(v, inputs.corpus(), count, rng, input.label) && run.valid;
      valid = valid && right;
      gbps.push_back(gb_per_s(inputs.text_bytes(), run.median_ms));
      cells.push_back(fixed(*gbps.back(), 1));
      results.add({input, v.name, v.name, run.median_ms, *gbps.back(), right});
    }
    const auto ratio = [&](std::size_t a, std::size_t b) {
      return gbps[a] && gbps[b] ? fixed(*gbps[a] / *gbps[b], 2) + "x" : std::string("-");
    };
    std::size_t best = 0;
    for (std::size_t k = 0; k < gbps.size(); ++k) {
      if (gbps[k] && (!gbps[best] || *gbps[k] > *gbps[best])) best = k;
    }
    cells.push_back(ratio(2, 1));
    cells.push_back(gbps[best] ? multi_gpu().versions[best].name : "-");
    cells.push_back(ratio(best, 0));
    cells.push_back(gbps[best] ? fixed(percent_of(*gbps[best], read), 1) : "-");
    table.add_row(cells);
  }
  std::cout << "\n"
            << o.corpus << (corpus.synthetic ? " (SYNTHETIC stand-in)" : "") << " repeated to " << o.mib
            << " MiB, count mode (per-pattern counts read back), GB/s of text: median of " << o.reps
            << " timed calls per version and set size, each on a fresh rotation with a fresh set\n";
  table.print(std::cout);
  std::cout << "targets: 1,000 patterns >= 50% of read, 100,000 patterns >= 10% of read (the device read "
            << fixed(read, 1) << " GB/s)\n";
  results.save(o.json);
  return valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 18: multi-pattern search on the GPU, every version on a large device-resident text"};
  Options o;
  add_mib_option(app, o.mib);
  app.add_option("--corpus", o.corpus, "corpus to repeat and draw the patterns from (bible.txt, E.coli, world192.txt)")
      ->capture_default_str();
  app.add_option("--sets", o.sets, "pattern set sizes")
      ->delimiter(',')
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}));
  app.add_option("--reps", o.reps, "timed calls per version and set size (each on a fresh text and set)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--versions", o.versions, "versions to run (default: all), e.g. v1,v3")->delimiter(',');
  app.add_option("--v0-max", o.v0_max, "the largest set v0 (one pass per pattern) runs on")->capture_default_str();
  add_json_option(app, o.json);
  add_seed_options(app, o.seed);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  const std::optional<std::uint64_t> seed = resolve_seed(o.seed, std::cin, std::cerr, kLesson);
  if (!seed) return 2;
  for (const std::string& name : o.versions) {
    if (std::none_of(multi_gpu().versions.begin(), multi_gpu().versions.end(),
                     [&](const GpuMultiVersion& v) { return v.name == name; })) {
      std::cerr << kLesson << ": --versions: no version '" << name << "' (v0 to v3)\n";
      return 2;
    }
  }
  if (find_corpus_spec(o.corpus) == nullptr) {
    std::cerr << kLesson << ": " << unknown_corpus_text(o.corpus) << "\n";
    return 2;
  }
  return run_driver(kLesson, [&] { return experiment(o, *seed); });
}
