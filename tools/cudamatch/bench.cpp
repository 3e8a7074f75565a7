// `cudamatch bench`: the course's headline experiment. Every algorithm (and the matchers a user would
// otherwise pick) x pattern lengths x corpora, patterns drawn from the text, every count checked
// against brute force; a table per corpus on stdout, optionally a CSV and a plot.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "commands.hpp"
#include "common/bandwidth.hpp"
#include "common/brute_force.hpp"
#include "common/corpus.hpp"
#include "common/random.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "matcher_choice.hpp"
#include "pattern_source.hpp"
#include "progress.hpp"

namespace cudamatch::cli {

namespace {

struct BenchOptions {
  std::vector<std::string> corpora;
  std::vector<std::size_t> lengths = {2, 4, 8, 16, 32, 64, 128, 256, 512, 1024};
  std::vector<std::string> algorithms;
  std::vector<std::string> compare;
  bool no_compare = false;
  std::size_t patterns = 20;
  std::string backend = "cpu";
  std::string data_dir;
  std::string csv;
  std::string plot;
  std::uint64_t seed = 2024;
};

// One matcher the bench runs: an algorithm on a backend, or a comparison row.
struct Contender {
  std::string name;
  std::string backend;
  std::function<std::unique_ptr<CpuMatcher>(ByteView)> make;
};

struct Row {
  std::string corpus;
  bool synthetic;
  std::size_t n;
  std::size_t m;
  std::string contender;
  std::string backend;
  TimingStats time;  // per search, over the patterns
  double gbps;
  std::uint64_t matches;  // summed over the patterns
  bool correct;
};

std::string cpu_model_name() {
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "unknown CPU";
}

std::vector<Contender> contenders(const BenchOptions& o) {
  const Backend backend = parse_backend(o.backend);
  std::vector<Contender> list;
  std::vector<AlgorithmSpec> specs;
  for (const std::string& name : o.algorithms) {
    specs.push_back(parse_algorithm_spec(name));
    if (!specs.back().algorithm) throw UsageError("--algorithms: an empty algorithm name");
  }
  if (specs.empty()) {
    for (Algorithm a : all_algorithms()) specs.push_back({a, std::nullopt});
  }
  for (const AlgorithmSpec& spec : specs) {
    const Algorithm a = *spec.algorithm;
    const std::optional<int> version = spec.version;
    require_available(backend, a, version);  // before any corpus is loaded
    list.push_back({algorithm_name(a), o.backend,
                    [backend, a, version](ByteView p) { return make_matcher(backend, a, version, p); }});
  }
  if (!o.no_compare) {
    const std::vector<std::string> names = o.compare.empty() ? comparison_names() : o.compare;
    for (const std::string& name : names) {
      const auto& known = comparison_names();
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        throw UsageError("unknown comparison matcher '" + name + "' (memmem, std-bmh)");
      }
      list.push_back({name, "cpu", [name](ByteView p) { return make_comparison_matcher(name, p); }});
    }
  }
  return list;
}

// P patterns of m bytes drawn from `text` at uniform starts, reproducibly.
std::vector<ByteView> draw_patterns(const std::vector<std::uint8_t>& text, std::size_t m, std::size_t count,
                                    std::uint64_t seed) {
  Rng rng(seed * 1000003 + m);
  std::vector<ByteView> patterns;
  for (std::size_t i = 0; i < count; ++i) patterns.emplace_back(text.data() + rng.below(text.size() - m + 1), m);
  return patterns;
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void write_csv(const std::string& path, const std::vector<Row>& rows, const std::string& device) {
  std::ofstream out(path);
  if (!out) throw UsageError("cannot write the CSV file '" + path + "'");
  out << "device,corpus,synthetic,bytes,m,matcher,backend,patterns,median_ms,min_ms,gbps,matches,correct\n";
  for (const Row& r : rows) {
    out << '"' << device << "\"," << r.corpus << ',' << (r.synthetic ? 1 : 0) << ',' << r.n << ',' << r.m << ','
        << r.contender << ',' << r.backend << ',' << r.time.reps << ',' << fixed(r.time.median_ms, 5) << ','
        << fixed(r.time.min_ms, 5) << ',' << fixed(r.gbps, 4) << ',' << r.matches << ',' << (r.correct ? 1 : 0)
        << '\n';
  }
}

void plot(const std::string& csv, const std::string& png) {
  const std::string command = "python3 \"" CUDAMATCH_PLOT_SCRIPT "\" \"" + csv + "\" \"" + png + "\"";
  if (std::system(command.c_str()) != 0) {
    throw std::runtime_error("plotting failed (" + command + "); the plot needs python3 with matplotlib "
                             "(Debian: apt-get install python3-matplotlib)");
  }
}

int run_bench(const BenchOptions& o) {
  const std::vector<Contender> list = contenders(o);
  std::vector<std::string> corpus_names = o.corpora;
  if (corpus_names.empty()) {
    for (const CorpusSpec& spec : corpus_specs()) corpus_names.push_back(spec.name);
  }
  for (std::size_t m : o.lengths) {
    if (m == 0) throw UsageError("--lengths: a pattern length must be at least 1");
  }
  const std::string device = o.backend == "cpu" ? cpu_model_name() : "GPU";
  std::vector<Corpus> corpora;
  for (const std::string& name : corpus_names) {
    corpora.push_back(load_corpus(name, o.data_dir.empty() ? default_data_dir() : o.data_dir, &std::cerr));
  }

  std::vector<Row> rows;
  Progress progress(corpora.size() * o.lengths.size() * list.size());
  for (const Corpus& corpus : corpora) {
    const ByteView text(corpus.bytes);
    for (std::size_t m : o.lengths) {
      if (m > text.size) continue;
      const auto patterns = draw_patterns(corpus.bytes, m, o.patterns, o.seed);
      std::vector<std::uint64_t> expected;
      for (ByteView p : patterns) expected.push_back(brute_force_count(text, p));
      for (const Contender& c : list) {
        progress.advance(corpus.name + " m=" + std::to_string(m) + " " + c.name);
        std::vector<double> samples;
        std::uint64_t matches = 0;
        bool correct = true;
        for (std::size_t i = 0; i < patterns.size(); ++i) {
          const auto matcher = c.make(patterns[i]);  // preprocessing is not timed
          if (i == 0) matcher->count(text);           // warm the caches once per contender
          const double start = now_ms();
          const std::uint64_t found = matcher->count(text);
          samples.push_back(now_ms() - start);
          matches += found;
          correct = correct && found == expected[i];
        }
        const TimingStats t = summarize_ms(samples);
        rows.push_back({corpus.name, corpus.synthetic, text.size, m, c.name, c.backend, t,
                        gb_per_s(text.size, t.median_ms), matches, correct});
      }
    }
  }

  bool all_correct = true;
  for (const Corpus& corpus : corpora) {
    std::vector<std::string> headers = {"m"};
    for (const Contender& c : list) headers.push_back(c.name);
    Table table(headers);
    for (std::size_t m : o.lengths) {
      std::vector<std::string> cells = {std::to_string(m)};
      for (const Contender& c : list) {
        const auto it = std::find_if(rows.begin(), rows.end(), [&](const Row& r) {
          return r.corpus == corpus.name && r.m == m && r.contender == c.name;
        });
        if (it == rows.end()) {
          cells.push_back("-");
          continue;
        }
        all_correct = all_correct && it->correct;
        cells.push_back(fixed(it->gbps, 2) + (it->correct ? "" : " WRONG"));
      }
      table.add_row(cells);
    }
    std::cout << corpus.name << " (" << corpus.bytes.size() << " bytes" << (corpus.synthetic ? ", SYNTHETIC stand-in" : "")
              << "): GB/s per search, median of " << o.patterns << " patterns drawn from the text, " << o.backend
              << " backend on " << device << "\n";
    table.print(std::cout);
    std::cout << '\n';
  }
  std::cout << "Every count was checked against brute force: " << (all_correct ? "all correct" : "SOME WRONG (marked)")
            << ". Pattern preprocessing is not timed.\n";
  if (!o.csv.empty()) write_csv(o.csv, rows, device);
  if (!o.plot.empty()) {
    if (o.csv.empty()) {
      const std::string temporary = o.plot + ".csv";
      write_csv(temporary, rows, device);
      plot(temporary, o.plot);
      std::remove(temporary.c_str());
    } else {
      plot(o.csv, o.plot);
    }
  }
  return all_correct ? kExitOk : 1;
}

}  // namespace

void add_bench_command(CLI::App& app, std::function<int()>& run) {
  auto* bench = app.add_subcommand(
      "bench",
      "Benchmark every algorithm over pattern lengths and corpora (patterns drawn from the text, counts checked\n"
      "against brute force). Corpora come from the datasets cache (python3 datasets/fetch.py); synthetic\n"
      "stand-ins of the same size replace missing ones, and the output says so.");
  auto o = std::make_shared<BenchOptions>();
  bench->add_option("--corpora", o->corpora, "bible.txt, E.coli, world192.txt (default: all three)")->delimiter(',');
  bench->add_option("--lengths", o->lengths, "pattern lengths")->delimiter(',')->capture_default_str();
  bench->add_option("--algorithms", o->algorithms, "bf, kmp, bm, sunday, epsm, ssef (default: all)")->delimiter(',');
  bench->add_option("--compare", o->compare, "comparison rows: memmem, std-bmh (default: both)")->delimiter(',');
  bench->add_flag("--no-compare", o->no_compare, "leave out the comparison rows");
  bench->add_option("--patterns", o->patterns, "patterns per length")->check(CLI::Range(std::size_t{1}, std::size_t{100000}))->capture_default_str();
  bench->add_option("--backend", o->backend, "cpu (cuda arrives with lessons 07-12)")->capture_default_str();
  bench->add_option("--data", o->data_dir, "directory of the corpora (default: $CUDAMATCH_DATA or datasets/cache)");
  bench->add_option("--csv", o->csv, "write every measurement to this CSV file");
  bench->add_option("--plot", o->plot, "draw GB/s against m, one panel per corpus, to this PNG (python3 + matplotlib)");
  bench->add_option("--seed", o->seed, "seed of the pattern draw")->capture_default_str();
  bench->callback([&run, o] { run = [o] { return run_bench(*o); }; });
}

}  // namespace cudamatch::cli
