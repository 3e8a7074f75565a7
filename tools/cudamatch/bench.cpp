// `cudamatch bench`: the course's headline experiment. Every algorithm (GPU versions and CPU
// references, and the matchers a user would otherwise pick) x pattern lengths x corpora, patterns
// drawn from the text, every count checked; a table per corpus on stdout, optionally a CSV and a plot.
//
// Time per search is wall time on the host: for the GPU, the launches plus the read-back of the
// count (what a caller waits for); for the CPU, the search. Each matcher runs once untimed first.
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
#include "common/ceilings.hpp"
#include "common/corpus.hpp"
#include "common/device_info.hpp"
#include "common/random.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "gpu_backend.hpp"
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
  std::vector<std::string> backends = {"cpu"};
  std::size_t mib = 0;  // 0: the corpora as they are; else each repeated to this many MiB
  bool batch = false;
  bool graph = false;
  std::string data_dir;
  std::string csv;
  std::string plot;
  std::uint64_t seed = 2024;
};

// One matcher the bench runs: a CPU matcher (`make`), or a GPU version (`gpu`, searched one pattern
// at a time, all patterns of a length in one batch, or one at a time replayed from a CUDA graph).
struct Contender {
  std::string name;     // "ssef" (CPU), "bf:v3" (GPU), "bf:v3 batch", "memmem"
  std::string backend;  // "cpu" or "cuda"
  Algorithm algorithm = Algorithm::bf;
  std::function<std::unique_ptr<CpuMatcher>(ByteView)> make;
  const GpuVersion* gpu = nullptr;
  bool batch = false;
  bool graph = false;  // replayed_count (lesson 10)
};

struct Row {
  std::string corpus;
  bool synthetic;
  std::size_t n;
  std::size_t m;
  std::string contender;
  std::string backend;
  std::string device;
  TimingStats time;  // per search, over the patterns
  double gbps;
  double pct_of_read;     // GPU rows: of the device read bandwidth measured at the start; else 0
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

void add_gpu_contenders(const BenchOptions& o, const std::vector<AlgorithmSpec>& specs, bool named,
                        std::vector<Contender>& list) {
  for (const AlgorithmSpec& spec : specs) {
    const Algorithm a = *spec.algorithm;
    const GpuAlgorithm* gpu = gpu_algorithm(a);
    if (gpu == nullptr && !named) continue;  // not asked for by name: leave out what is not built yet
    require_available(Backend::cuda, a, spec.version);
    std::vector<const GpuVersion*> versions;
    if (spec.version) {
      versions.push_back(&gpu->version(*spec.version));
    } else {
      versions.push_back(&gpu->baseline());
      if (gpu->versions.size() > 1) versions.push_back(&gpu->best());
    }
    for (const GpuVersion* v : versions)
      list.push_back({std::string(algorithm_name(a)) + ":" + v->name, "cuda", a, {}, v, false});
    if (o.batch)
      list.push_back({std::string(algorithm_name(a)) + ":" + versions.back()->name + " batch",
                      "cuda",
                      a,
                      {},
                      versions.back(),
                      true});
    if (o.graph && graph_replayable(*versions.back()))
      list.push_back({std::string(algorithm_name(a)) + ":" + versions.back()->name + " graph",
                      "cuda",
                      a,
                      {},
                      versions.back(),
                      false,
                      true});
  }
}

std::vector<Contender> contenders(const BenchOptions& o) {
  std::vector<AlgorithmSpec> specs;
  for (const std::string& name : o.algorithms) {
    specs.push_back(parse_algorithm_spec(name));
    if (!specs.back().algorithm) throw UsageError("--algorithms: an empty algorithm name");
  }
  const bool named = !specs.empty();
  if (!named) {
    for (Algorithm a : all_algorithms()) specs.push_back({a, std::nullopt});
  }
  std::vector<Contender> list;
  for (const std::string& backend_name : o.backends) {
    if (parse_backend(backend_name) == Backend::cuda) {
      add_gpu_contenders(o, specs, named, list);
      continue;
    }
    for (const AlgorithmSpec& spec : specs) {
      const Algorithm a = *spec.algorithm;
      require_available(Backend::cpu, a, spec.version);  // before any corpus is loaded
      list.push_back({algorithm_name(a), "cpu", a, [a](ByteView p) { return make_cpu_matcher(a, p); }, nullptr, false});
    }
  }
  if (!o.no_compare) {
    const std::vector<std::string> names = o.compare.empty() ? comparison_names() : o.compare;
    for (const std::string& name : names) {
      const auto& known = comparison_names();
      if (std::find(known.begin(), known.end(), name) == known.end()) {
        throw UsageError("unknown comparison matcher '" + name + "' (memmem, std-bmh)");
      }
      list.push_back({name, "cpu", Algorithm::bf, [name](ByteView p) { return make_comparison_matcher(name, p); },
                      nullptr, false});
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

struct Measurement {
  std::vector<double> samples_ms;  // per search
  std::uint64_t matches = 0;
  bool correct = true;
};

Measurement measure_cpu(const Contender& c, ByteView text, const std::vector<ByteView>& patterns,
                        const std::vector<std::uint64_t>& expected) {
  Measurement result;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    const auto matcher = c.make(patterns[i]);  // preprocessing is not timed
    if (i == 0) matcher->count(text);          // warm the caches once per contender
    const double start = now_ms();
    const std::uint64_t found = matcher->count(text);
    result.samples_ms.push_back(now_ms() - start);
    result.matches += found;
    result.correct = result.correct && found == expected[i];
  }
  return result;
}

Measurement measure_gpu(const Contender& c, const DeviceText& text, const std::vector<DevicePattern>& patterns,
                        const std::vector<std::uint64_t>& expected) {
  Measurement result;
  std::vector<std::uint64_t> found(patterns.size());
  if (c.batch) {
    std::vector<const DevicePattern*> batch;
    for (const DevicePattern& p : patterns) batch.push_back(&p);
    gpu_count_batch(*c.gpu, text, batch);  // untimed first run
    for (int rep = 0; rep < 3; ++rep) {
      const double start = now_ms();
      found = gpu_count_batch(*c.gpu, text, batch);
      result.samples_ms.push_back((now_ms() - start) / static_cast<double>(patterns.size()));
    }
  } else if (c.graph) {
    replayed_count(*c.gpu, text, patterns.front());  // untimed first run: captures the graph
    for (std::size_t i = 0; i < patterns.size(); ++i) {
      const double start = now_ms();
      found[i] = replayed_count(*c.gpu, text, patterns[i]);
      result.samples_ms.push_back(now_ms() - start);
    }
  } else {
    gpu_count(*c.gpu, text, patterns.front());
    for (std::size_t i = 0; i < patterns.size(); ++i) {
      const double start = now_ms();
      found[i] = gpu_count(*c.gpu, text, patterns[i]);
      result.samples_ms.push_back(now_ms() - start);
    }
  }
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    result.matches += found[i];
    result.correct = result.correct && found[i] == expected[i];
  }
  return result;
}

void write_csv(const std::string& path, const std::vector<Row>& rows) {
  std::ofstream out(path);
  if (!out) throw UsageError("cannot write the CSV file '" + path + "'");
  out << "device,corpus,synthetic,bytes,m,matcher,backend,patterns,median_ms,min_ms,gbps,pct_of_read,matches,correct\n";
  for (const Row& r : rows) {
    out << '"' << r.device << "\"," << r.corpus << ',' << (r.synthetic ? 1 : 0) << ',' << r.n << ',' << r.m << ','
        << r.contender << ',' << r.backend << ',' << r.time.reps << ',' << fixed(r.time.median_ms, 5) << ','
        << fixed(r.time.min_ms, 5) << ',' << fixed(r.gbps, 4) << ',' << fixed(r.pct_of_read, 2) << ',' << r.matches
        << ',' << (r.correct ? 1 : 0) << '\n';
  }
}

void plot(const std::string& csv, const std::string& png) {
  const std::string command = "python3 \"" CUDAMATCH_PLOT_SCRIPT "\" \"" + csv + "\" \"" + png + "\"";
  if (std::system(command.c_str()) != 0) {
    throw std::runtime_error("plotting failed (" + command +
                             "); the plot needs python3 with matplotlib "
                             "(Debian: apt-get install python3-matplotlib)");
  }
}

const Row* find_row(const std::vector<Row>& rows, const std::string& corpus, std::size_t m, const std::string& name) {
  const auto it = std::find_if(rows.begin(), rows.end(),
                               [&](const Row& r) { return r.corpus == corpus && r.m == m && r.contender == name; });
  return it == rows.end() ? nullptr : &*it;
}

// One pivot table per corpus: m down, contenders across, `cell` of each row.
void print_pivot(const std::vector<Row>& rows, const Corpus& corpus, const std::vector<Contender>& list,
                 const std::vector<std::size_t>& lengths, const std::function<std::string(const Row&)>& cell) {
  std::vector<std::string> headers = {"m"};
  for (const Contender& c : list) headers.push_back(c.name);
  Table table(headers);
  for (std::size_t m : lengths) {
    std::vector<std::string> cells = {std::to_string(m)};
    for (const Contender& c : list) {
      const Row* r = find_row(rows, corpus.name, m, c.name);
      cells.push_back(r == nullptr ? "-" : cell(*r) + (r->correct ? "" : " WRONG"));
    }
    table.add_row(cells);
  }
  table.print(std::cout);
}

// CPU time / GPU time per algorithm, the GPU's fastest version against the CPU reference.
void print_speedups(const std::vector<Row>& rows, const Corpus& corpus, const std::vector<Contender>& list,
                    const std::vector<std::size_t>& lengths) {
  std::vector<Algorithm> algorithms;
  for (const Contender& c : list) {
    const auto is_cpu_reference = [&](const Contender& d) {
      return d.backend == "cpu" && d.name == algorithm_name(c.algorithm);
    };
    if (c.backend == "cuda" && std::find(algorithms.begin(), algorithms.end(), c.algorithm) == algorithms.end() &&
        std::any_of(list.begin(), list.end(), is_cpu_reference)) {
      algorithms.push_back(c.algorithm);
    }
  }
  if (algorithms.empty()) return;
  std::vector<std::string> headers = {"m"};
  for (Algorithm a : algorithms) headers.push_back(algorithm_name(a));
  Table table(headers);
  for (std::size_t m : lengths) {
    std::vector<std::string> cells = {std::to_string(m)};
    for (Algorithm a : algorithms) {
      const Row* cpu = find_row(rows, corpus.name, m, algorithm_name(a));
      double fastest_gpu = 0.0;
      for (const Contender& c : list) {
        if (c.backend != "cuda" || c.algorithm != a) continue;
        if (const Row* r = find_row(rows, corpus.name, m, c.name); r != nullptr && r->correct) {
          fastest_gpu = fastest_gpu == 0.0 ? r->time.median_ms : std::min(fastest_gpu, r->time.median_ms);
        }
      }
      cells.push_back(cpu == nullptr || fastest_gpu == 0.0 ? "-" : fixed(cpu->time.median_ms / fastest_gpu, 1) + "x");
    }
    table.add_row(cells);
  }
  std::cout << "GPU speedup over the CPU reference of the same algorithm (CPU time / fastest GPU version's time):\n";
  table.print(std::cout);
}

int run_bench(const BenchOptions& o) {
  const std::vector<Contender> list = contenders(o);
  const bool uses_gpu = std::any_of(list.begin(), list.end(), [](const Contender& c) { return c.backend == "cuda"; });
  std::vector<std::string> corpus_names = o.corpora;
  if (corpus_names.empty()) {
    for (const CorpusSpec& spec : corpus_specs()) corpus_names.push_back(spec.name);
  }
  for (std::size_t m : o.lengths) {
    if (m == 0) throw UsageError("--lengths: a pattern length must be at least 1");
  }
  std::string gpu_name;
  double read_gbps = 0.0;
  if (uses_gpu) {
    const DeviceAvailability devices = cuda_devices();
    if (devices.count == 0) throw UsageError("no CUDA device (" + devices.reason + "); use --backend cpu");
    const DeviceInfo info = query_device();
    const Ceilings ceilings = measure_ceilings(info);
    gpu_name = info.name;
    read_gbps = ceilings.device_read_gbps;
    std::cout << "GPU: " << gpu_name << "; device read bandwidth measured now: " << fixed(read_gbps, 0)
              << " GB/s (theoretical " << fixed(ceilings.theoretical_gbps, 0) << ")\n";
  }
  const std::string cpu_name = cpu_model_name();
  std::vector<Corpus> corpora;
  for (const std::string& name : corpus_names) {
    corpora.push_back(load_corpus(name, o.data_dir.empty() ? default_data_dir() : o.data_dir, &std::cerr));
  }

  std::vector<Row> rows;
  Progress progress(corpora.size() * o.lengths.size() * list.size());
  for (const Corpus& corpus : corpora) {
    const std::vector<std::uint8_t> repeated =
        o.mib == 0 ? std::vector<std::uint8_t>() : repeat_to(corpus.bytes, o.mib * kMiB);
    const ByteView text = o.mib == 0 ? ByteView(corpus.bytes) : ByteView(repeated);
    const std::unique_ptr<DeviceText> device_text = uses_gpu ? std::make_unique<DeviceText>(text) : nullptr;
    for (std::size_t m : o.lengths) {
      if (m > corpus.bytes.size()) continue;
      const auto patterns = draw_patterns(corpus.bytes, m, o.patterns, o.seed);
      // The oracle: brute force, or on texts too large for it to be quick, the CPU matcher of the
      // default choice (tested against brute force on 100,000 cases).
      std::vector<std::uint64_t> expected;
      for (ByteView p : patterns) {
        expected.push_back(text.size <= 64 * kMiB ? brute_force_count(text, p)
                                                  : make_cpu_matcher(default_algorithm(m), p)->count(text));
      }
      std::vector<DevicePattern> device_patterns;
      if (uses_gpu) {
        for (ByteView p : patterns) device_patterns.emplace_back(p);
      }
      for (const Contender& c : list) {
        progress.advance(corpus.name + " m=" + std::to_string(m) + " " + c.name);
        const Measurement result = c.gpu != nullptr ? measure_gpu(c, *device_text, device_patterns, expected)
                                                    : measure_cpu(c, text, patterns, expected);
        const TimingStats t = summarize_ms(result.samples_ms);
        const double gbps = gb_per_s(text.size, t.median_ms);
        rows.push_back({corpus.name, corpus.synthetic, text.size, m, c.name, c.backend,
                        c.backend == "cuda" ? gpu_name : cpu_name, t, gbps,
                        c.backend == "cuda" ? percent_of(gbps, read_gbps) : 0.0, result.matches, result.correct});
      }
    }
  }

  bool all_correct = std::all_of(rows.begin(), rows.end(), [](const Row& r) { return r.correct; });
  for (const Corpus& corpus : corpora) {
    const std::size_t n = o.mib == 0 ? corpus.bytes.size() : o.mib * kMiB;
    std::cout << corpus.name << " (" << n << " bytes" << (o.mib == 0 ? "" : ", the corpus repeated")
              << (corpus.synthetic ? ", SYNTHETIC stand-in" : "") << "): GB/s per search, median of " << o.patterns
              << " patterns drawn from the text\n";
    print_pivot(rows, corpus, list, o.lengths, [](const Row& r) { return fixed(r.gbps, 2); });
    if (uses_gpu) {
      std::cout << "the same, microseconds per search (GPU: launches and the count's read-back included)\n";
      print_pivot(rows, corpus, list, o.lengths, [](const Row& r) { return fixed(1000.0 * r.time.median_ms, 1); });
      print_speedups(rows, corpus, list, o.lengths);
    }
    std::cout << '\n';
  }
  std::cout << "Names: ALGO:vN is version N on the GPU (" << (uses_gpu ? gpu_name : "none")
            << "), a plain name the CPU (" << cpu_name
            << "). Every count was checked: " << (all_correct ? "all correct" : "SOME WRONG (marked)")
            << ". Pattern preprocessing on the host is not timed.\n";
  if (!o.csv.empty()) write_csv(o.csv, rows);
  if (!o.plot.empty()) {
    if (o.csv.empty()) {
      const std::string temporary = o.plot + ".csv";
      write_csv(temporary, rows);
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
      "stand-ins of the same size replace missing ones, and the output says so. With --backend cuda, each\n"
      "algorithm's baseline (v0) and best GPU version, beside the device read bandwidth measured first.");
  auto o = std::make_shared<BenchOptions>();
  bench->add_option("--corpora", o->corpora, "bible.txt, E.coli, world192.txt (default: all three)")->delimiter(',');
  bench->add_option("--lengths", o->lengths, "pattern lengths")->delimiter(',')->capture_default_str();
  bench->add_option("--algorithms", o->algorithms, "bf, kmp, bm, sunday, epsm, ssef, optionally :vN (default: all)")
      ->delimiter(',');
  bench->add_option("--compare", o->compare, "comparison rows: memmem, std-bmh (default: both)")->delimiter(',');
  bench->add_flag("--no-compare", o->no_compare, "leave out the comparison rows");
  bench->add_option("--patterns", o->patterns, "patterns per length")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}))
      ->capture_default_str();
  bench->add_option("--backend", o->backends, "cpu, cuda, or both: cuda,cpu (the speedup table)")
      ->delimiter(',')
      ->capture_default_str();
  bench->add_option("--mib", o->mib, "repeat each corpus to this many MiB (device-resident throughput; default: as is)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 16));
  bench->add_flag("--batch", o->batch, "GPU: also time all patterns of a length queued together, one read-back");
  bench->add_flag("--graph", o->graph,
                  "GPU: also time brute force's best version replayed from a CUDA graph (lesson 10), one pattern at a "
                  "time (gpu_count, said on stderr, while lesson 10 is unfinished)");
  bench->add_option("--data", o->data_dir, "directory of the corpora (default: $CUDAMATCH_DATA or datasets/cache)");
  bench->add_option("--csv", o->csv, "write every measurement to this CSV file");
  bench->add_option("--plot", o->plot, "draw GB/s against m, one panel per corpus, to this PNG (python3 + matplotlib)");
  bench->add_option("--seed", o->seed, "seed of the pattern draw")->capture_default_str();
  bench->callback([&run, o] { run = [o] { return run_bench(*o); }; });
}

}  // namespace cudamatch::cli
