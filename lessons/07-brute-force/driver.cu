// Lesson 07 - brute force on the GPU: the experiment. Count-mode searches of a 1 GiB device-resident
// text (a corpus repeated), each version at each pattern length, against the device read bandwidth
// measured in the same run.
//
//   ./build/default/bin/07-brute-force [--mib 1024] [--lengths 2,4,...] [--patterns 5] [--reps 3]
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "brute_force_gpu.hpp"
#include "common/bandwidth.hpp"
#include "common/cli_parse.hpp"
#include "common/corpus.hpp"
#include "common/driver.hpp"
#include "common/matchers/cpu_matcher.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/table.hpp"

using namespace cudamatch;

namespace {

struct Options {
  std::size_t mib = 1024;
  std::vector<std::size_t> lengths = {2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  std::size_t patterns = 5;
  int reps = 3;
};

// `corpus` repeated until it fills `bytes`.
std::vector<std::uint8_t> repeat_to(const std::vector<std::uint8_t>& corpus, std::size_t bytes) {
  std::vector<std::uint8_t> text(bytes);
  for (std::size_t at = 0; at < bytes; at += corpus.size()) {
    std::copy_n(corpus.begin(), std::min(corpus.size(), bytes - at), text.begin() + static_cast<long>(at));
  }
  return text;
}

int experiment(const Options& o) {
  const RunContext context = measure_run_context(std::cout);
  const double read_ceiling = context.ceilings.device_read_gbps;
  TimingOptions timing;
  timing.warmup = 1;
  timing.warmup_min_ms = 0.0;  // the GPU is warm: the ceilings just ran
  timing.reps = o.reps;
  bool valid = true;
  for (const char* corpus_name : {"E.coli", "bible.txt"}) {
    const Corpus corpus = load_corpus(corpus_name, default_data_dir(), &std::cerr);
    const std::vector<std::uint8_t> host = repeat_to(corpus.bytes, o.mib * kMiB);
    const DeviceText text(host);
    const std::vector<BruteForceVersion> versions = {BruteForceVersion::v0, BruteForceVersion::v1, BruteForceVersion::v2};
    Table table({"m", "v0 GB/s", "v1 GB/s", "v2 GB/s", "best / v0", "best % of read"});
    Rng rng(77);
    for (std::size_t m : o.lengths) {
      std::vector<std::vector<double>> samples(versions.size());
      for (std::size_t p = 0; p < o.patterns; ++p) {
        const std::size_t at = rng.below(corpus.bytes.size() - m + 1);
        const ByteView pattern_view(corpus.bytes.data() + at, m);
        DeviceBuffer<std::uint8_t> pattern(m);
        pattern.upload(pattern_view.data, m);
        // Validate: every version gives v0's count, and the first pattern of each length the CPU's.
        const std::uint64_t expected = bf_count(BruteForceVersion::v0, text, pattern);
        bool ok = p != 0 || expected == make_cpu_matcher(m < 16 ? Algorithm::epsm : Algorithm::ssef, pattern_view)->count(host);
        for (std::size_t v = 0; v < versions.size(); ++v) {
          const BruteForceVersion version = versions[v];
          ok = ok && bf_count(version, text, pattern) == expected;
          samples[v].push_back(time_on_gpu([&](cudaStream_t s) { bf_count(version, text, pattern, s); }, timing).median_ms);
        }
        if (!ok) std::cerr << corpus_name << " m=" << m << ": the versions' counts disagree\n";
        valid = valid && ok;
      }
      std::vector<std::string> cells = {std::to_string(m)};
      double best = 0.0;
      for (const auto& version_samples : samples) {
        const double gbps = gb_per_s(host.size(), summarize_ms(version_samples).median_ms);
        best = std::max(best, gbps);
        cells.push_back(fixed(gbps, 1));
      }
      const double v0 = gb_per_s(host.size(), summarize_ms(samples[0]).median_ms);
      cells.push_back(fixed(best / v0, 2) + "x");
      cells.push_back(fixed(percent_of(best, read_ceiling), 1));
      table.add_row(cells);
    }
    std::cout << "\n" << corpus_name << (corpus.synthetic ? " (SYNTHETIC stand-in)" : "") << " repeated to " << o.mib
              << " MiB, count mode (result read back), median over " << o.patterns << " patterns of the median of "
              << o.reps << " runs\n";
    table.print(std::cout);
  }
  return valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 07: brute-force search on the GPU, v0 against the optimized versions"};
  Options o;
  app.add_option("--mib", o.mib, "text size in MiB")->check(CLI::Range(std::size_t{1}, std::size_t{1} << 16))->capture_default_str();
  app.add_option("--lengths", o.lengths, "pattern lengths")->delimiter(',')->capture_default_str();
  app.add_option("--patterns", o.patterns, "patterns per length")->check(CLI::Range(std::size_t{1}, std::size_t{10000}))->capture_default_str();
  app.add_option("--reps", o.reps, "timed runs per pattern")->check(CLI::Range(1, 1000))->capture_default_str();
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  for (std::size_t m : o.lengths) {
    if (m == 0 || m > 4 * kMiB) {
      std::cerr << "07-brute-force: pattern lengths must be 1 to 4 MiB\n";
      return 2;
    }
  }
  return run_driver("07-brute-force", [&] { return experiment(o); });
}
