// `cudamatch bench`: the course's headline experiment. Every algorithm (GPU versions and CPU
// references, and the peers: the matchers a user would otherwise pick, peers.hpp) x pattern lengths x
// corpora, patterns drawn from the text, every count checked; a table per corpus on stdout, and the
// table, a CSV and a plot in a results folder (bench_outputs.hpp).
//
// With no --backend it is the course's main experiment: on a machine with a GPU, what
// `--backend cuda,cpu --batch` runs (each algorithm's GPU baseline and best version, the batched searches,
// the CPU references and the peers) for all six algorithms, m = 2..4096, the three 4 MB corpora,
// 20 patterns each. That is short enough to measure everything: about a minute, most of it the CPU rows
// (from the 100-pattern run of docs/results/gpu-bench.md, m up to 1024: about 20 s of CPU and 1 s of GPU
// on the H200 machine; the CPU rows took 15 s on the 2-core development VM; 2048 and 4096 not yet timed).
//
// Time per search is wall time on the host: for the GPU, the launches plus the read-back of the
// count (what a caller waits for); for the CPU, the search. Each matcher runs once untimed first.
#include <algorithm>
#include <iostream>
#include <sstream>

#include "bench_common.hpp"
#include "bench_outputs.hpp"
#include "commands.hpp"
#include "common/bandwidth.hpp"
#include "common/brute_force.hpp"
#include "common/corpus.hpp"
#include "common/random.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"
#include "dispatch.hpp"
#include "gpu_backend.hpp"
#include "matcher_choice.hpp"
#include "pattern_source.hpp"
#include "peers.hpp"
#include "progress.hpp"

namespace cudamatch::cli {

namespace {

// One matcher the bench runs: a CPU matcher (`make`), or a GPU version (`gpu`, searched one pattern
// at a time, all patterns of a length in one batch, one at a time replayed from a CUDA graph, or all
// of a length in one replayed graph); or a backend's auto row, the matcher its dispatch table picks
// for each corpus and m (chosen_for).
struct Contender {
  // "ssef" (CPU), "bf:v3" (GPU), "bf:v3 batch", "bf:v3 graph", "bf:v3 graph batch", "memmem", "auto", "auto:cuda"
  std::string name;
  std::string backend;  // "cpu" or "cuda"
  Algorithm algorithm = Algorithm::bf;
  std::function<std::unique_ptr<CpuMatcher>(ByteView)> make;
  const GpuVersion* gpu = nullptr;
  bool batch = false;
  bool graph = false;      // replayed_count (lesson 10)
  bool automatic = false;  // an auto row, before chosen_for
  std::string chosen{};    // an auto row after chosen_for: the matcher picked ("epsm:v2")
};

// What `--algorithms` calls the auto rows.
constexpr const char* kAuto = "auto";
// The auto row within this share of the fastest single matcher's GB/s is "within 10%" (issue 20).
constexpr double kAutoWithin = 0.9;

// The auto row `c` made concrete for a text of `text`'s traits and patterns of m bytes: the matcher the
// dispatch table picks (dispatch.hpp), as search picks it.
Contender chosen_for(const Contender& c, const TextTraits& text, std::size_t m) {
  const Backend backend = parse_backend(c.backend);
  const DispatchRange& range = dispatch_range(dispatch_table(backend, text.sample.alphabet, text.bytes), m);
  Contender chosen = c;
  chosen.automatic = false;
  chosen.algorithm = range.algorithm;
  chosen.chosen = matcher_label(backend, range.algorithm, range.version);
  if (backend == Backend::cuda) {
    require_available(Backend::cuda, range.algorithm, range.version);
    chosen.gpu = &gpu_algorithm(range.algorithm)->version(range.version);
  } else {
    chosen.make = [a = range.algorithm](ByteView p) { return make_cpu_matcher(a, p); };
  }
  return chosen;
}

// Whether `c` is one matcher searching one pattern at a time: a GPU version, or a CPU reference (not an
// auto row, a batch, a graph replay or a peer): what the auto row chooses among.
bool single_matcher(const Contender& c) {
  if (c.automatic || c.batch || c.graph) return false;
  return c.backend == "cuda" || c.name == algorithm_name(c.algorithm);
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
    if (o.graph && graph_replayable(*versions.back())) {
      list.push_back({std::string(algorithm_name(a)) + ":" + versions.back()->name + " graph",
                      "cuda",
                      a,
                      {},
                      versions.back(),
                      false,
                      true});
      if (o.batch)
        list.push_back({std::string(algorithm_name(a)) + ":" + versions.back()->name + " graph batch",
                        "cuda",
                        a,
                        {},
                        versions.back(),
                        true,
                        true});
    }
  }
}

std::vector<Contender> contenders(const BenchOptions& o, const std::vector<std::string>& peers) {
  std::vector<AlgorithmSpec> specs;
  bool with_auto = o.algorithms.empty();
  for (const std::string& name : o.algorithms) {
    if (name == kAuto) {
      with_auto = true;
      continue;
    }
    specs.push_back(parse_algorithm_spec(name));
    if (!specs.back().algorithm) throw UsageError("--algorithms: an empty algorithm name");
  }
  const bool named = !o.algorithms.empty();
  if (!named) {
    for (Algorithm a : all_algorithms()) specs.push_back({a, std::nullopt});
  }
  std::vector<Contender> list;
  for (const std::string& backend_name : o.backends) {
    const Backend backend = parse_backend(backend_name);
    if (backend == Backend::cuda) {
      add_gpu_contenders(o, specs, named, list);
    } else {
      for (const AlgorithmSpec& spec : specs) {
        const Algorithm a = *spec.algorithm;
        require_available(Backend::cpu, a, spec.version);  // before any corpus is loaded
        list.push_back(
            {algorithm_name(a), "cpu", a, [a](ByteView p) { return make_cpu_matcher(a, p); }, nullptr, false});
      }
    }
    if (with_auto) {
      Contender automatic;
      automatic.name = backend == Backend::cuda ? std::string(kAuto) + ":cuda" : kAuto;
      automatic.backend = backend_name;
      automatic.automatic = true;
      list.push_back(automatic);
    }
  }
  for (const std::string& name : peers) {
    list.push_back(
        {name, "cpu", Algorithm::bf, [name](ByteView p) { return make_peer_matcher(name, p); }, nullptr, false});
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

struct Measurement {
  std::vector<double> samples_ms;  // per search
  std::uint64_t matches = 0;
  bool correct = true;
};

// The shortest CPU sample (see measure_cpu).
constexpr double kMinCpuSampleMs = 1.0;

// Every CPU contender's samples, the contenders taking turns on each pattern rather than one after
// another: a slow spell of a shared host then falls on every contender's sample of the same pattern, not
// on one contender's whole row (docs/results/data/h200/experiments/session10/c2-bench-4mb-cpu.csv, one
// contender after another: the same SSEF code at 0.35 ms a search in one row, 0.60 ms in the next). After each pattern
// `done(patterns done)`.
std::vector<Measurement> measure_cpu(const std::vector<const Contender*>& contenders, ByteView text,
                                     const std::vector<ByteView>& patterns, const std::vector<std::uint64_t>& expected,
                                     const std::function<void(std::size_t)>& done) {
  std::vector<Measurement> results(contenders.size());
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    for (std::size_t k = 0; k < contenders.size(); ++k) {
      const auto matcher = contenders[k]->make(patterns[i]);  // preprocessing is not timed
      if (i == 0) matcher->count(text);                       // warm the caches once per contender
      // A sample is the mean of as many calls as fill kMinCpuSampleMs: SSEF finds a 4 KB pattern in a
      // 4 MB text in about 10 us, where one timed call varied by 20% from row to row (the same matcher
      // under two names, the ninth session's bench on the H200 host).
      std::uint64_t found = 0;  // the last call's count is checked: the matchers are deterministic
      int calls = 0;
      const double start = now_ms();
      double spent = 0.0;
      do {
        found = matcher->count(text);
        ++calls;
        spent = now_ms() - start;
      } while (spent < kMinCpuSampleMs);
      Measurement& result = results[k];
      result.samples_ms.push_back(spent / calls);
      result.matches += found;
      result.correct = result.correct && found == expected[i];
    }
    done(i + 1);
  }
  return results;
}

Measurement measure_gpu(const Contender& c, const DeviceText& text, const std::vector<DevicePattern>& patterns,
                        const std::vector<std::uint64_t>& expected) {
  Measurement result;
  std::vector<std::uint64_t> found(patterns.size());
  if (c.batch) {
    // Every pattern of the length queued together, one read-back; with c.graph, one replay of a graph
    // that holds every search (the patterns of one length have one length, as a graph's batch needs).
    std::vector<const DevicePattern*> batch;
    for (const DevicePattern& p : patterns) batch.push_back(&p);
    const auto count_all = [&] {
      return c.graph ? replayed_count_batch(*c.gpu, text, batch) : gpu_count_batch(*c.gpu, text, batch);
    };
    count_all();  // untimed first run (a graph's capture)
    for (int rep = 0; rep < 3; ++rep) {
      const double start = now_ms();
      found = count_all();
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

const BenchRow* find_row(const std::vector<BenchRow>& rows, const std::string& corpus, std::size_t m,
                         const std::string& name) {
  const auto it = std::find_if(rows.begin(), rows.end(), [&](const BenchRow& r) {
    return r.corpus == corpus && r.m == m && r.contender == name;
  });
  return it == rows.end() ? nullptr : &*it;
}

// One pivot table per corpus: m down, contenders across, `cell` of each row.
void print_pivot(std::ostream& out, const std::vector<BenchRow>& rows, const Corpus& corpus,
                 const std::vector<Contender>& list, const std::vector<std::size_t>& lengths,
                 const std::function<std::string(const BenchRow&)>& cell) {
  std::vector<std::string> headers = {"m"};
  for (const Contender& c : list) headers.push_back(c.name);
  Table table(headers);
  for (std::size_t m : lengths) {
    std::vector<std::string> cells = {std::to_string(m)};
    for (const Contender& c : list) {
      const BenchRow* r = find_row(rows, corpus.name, m, c.name);
      cells.push_back(r == nullptr ? "-" : cell(*r) + (r->correct ? "" : " WRONG"));
    }
    table.add_row(cells);
  }
  table.print(out);
}

// CPU time / GPU time per algorithm, the GPU's fastest version against the CPU reference.
void print_speedups(std::ostream& out, const std::vector<BenchRow>& rows, const Corpus& corpus,
                    const std::vector<Contender>& list, const std::vector<std::size_t>& lengths) {
  std::vector<Algorithm> algorithms;
  for (const Contender& c : list) {
    const auto is_cpu_reference = [&](const Contender& d) {
      return d.backend == "cpu" && d.name == algorithm_name(c.algorithm);
    };
    if (c.backend == "cuda" && !c.automatic &&
        std::find(algorithms.begin(), algorithms.end(), c.algorithm) == algorithms.end() &&
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
      const BenchRow* cpu = find_row(rows, corpus.name, m, algorithm_name(a));
      double fastest_gpu = 0.0;
      for (const Contender& c : list) {
        if (c.backend != "cuda" || c.automatic || c.algorithm != a) continue;
        if (const BenchRow* r = find_row(rows, corpus.name, m, c.name); r != nullptr && r->correct) {
          fastest_gpu = fastest_gpu == 0.0 ? r->time.median_ms : std::min(fastest_gpu, r->time.median_ms);
        }
      }
      cells.push_back(cpu == nullptr || fastest_gpu == 0.0 ? "-" : fixed(cpu->time.median_ms / fastest_gpu, 1) + "x");
    }
    table.add_row(cells);
  }
  out << "GPU speedup over the CPU reference of the same algorithm (CPU time / fastest GPU version's time):\n";
  table.print(out);
}

// Each auto row against the fastest single matcher of its backend in this run (single_matcher), per corpus
// and m: the ratio of their GB/s, the matcher picked and the fastest; then one line saying whether the auto
// row came within 10% of the fastest everywhere, and where not.
void print_auto_report(std::ostream& out, const std::vector<BenchRow>& rows, const std::vector<Corpus>& corpora,
                       const std::vector<Contender>& list, const std::vector<std::size_t>& lengths) {
  for (const Contender& automatic : list) {
    if (!automatic.automatic) continue;
    std::vector<std::string> headers = {"m"};
    for (const Corpus& corpus : corpora) headers.push_back(corpus.name + ": auto / fastest");
    Table table(headers);
    double worst = 0.0;
    std::string worst_at;
    std::vector<std::string> misses;
    for (std::size_t m : lengths) {
      std::vector<std::string> cells = {std::to_string(m)};
      for (const Corpus& corpus : corpora) {
        const BenchRow* chosen = find_row(rows, corpus.name, m, automatic.name);
        const BenchRow* fastest = nullptr;
        for (const Contender& c : list) {
          if (c.backend != automatic.backend || !single_matcher(c)) continue;
          const BenchRow* r = find_row(rows, corpus.name, m, c.name);
          if (r != nullptr && r->correct && (fastest == nullptr || r->gbps > fastest->gbps)) fastest = r;
        }
        if (chosen == nullptr || fastest == nullptr) {
          cells.emplace_back("-");
          continue;
        }
        const double ratio = chosen->gbps / fastest->gbps;
        const std::string at = corpus.name + " m = " + std::to_string(m) + " (" + fixed(ratio, 2) + ")";
        cells.push_back(fixed(ratio, 2) + " " + chosen->chosen + " / " + fastest->contender);
        if (worst_at.empty() || ratio < worst) {
          worst = ratio;
          worst_at = at;
        }
        if (ratio < kAutoWithin) misses.push_back(at);
      }
      table.add_row(cells);
    }
    if (worst_at.empty()) continue;
    out << automatic.name << " (the dispatch table's pick, as `cudamatch search` without -a picks it) against the "
        << "fastest single matcher of the " << automatic.backend << " backend in this run: GB/s ratio, picked / "
        << "fastest\n";
    table.print(out);
    if (misses.empty()) {
      out << automatic.name << ": within 10% of the fastest at every m and corpus (lowest: " << worst_at << ")\n";
    } else {
      out << automatic.name << ": more than 10% below the fastest at " << misses.size() << " of "
          << lengths.size() * corpora.size() << ":";
      for (const std::string& miss : misses) out << ' ' << miss;
      out << '\n';
    }
  }
}

int run_bench(BenchOptions o) {
  std::ostringstream notes;  // said on stderr once the options, the corpora and the results folder are good
  if (o.backends.empty()) choose_default_backends(o, notes);
  const std::vector<std::string> peers = o.no_peers ? std::vector<std::string>() : choose_peers(o.peers, notes);
  const std::vector<Contender> list = contenders(o, peers);
  const bool uses_gpu = std::any_of(list.begin(), list.end(), [](const Contender& c) { return c.backend == "cuda"; });
  for (std::size_t m : o.lengths) {
    if (m == 0) throw UsageError("--lengths: a pattern length must be at least 1");
  }
  if (uses_gpu) require_gpu_for_bench();
  const std::vector<Corpus> corpora = load_bench_corpora(o, notes);
  BenchOutputs outputs(o.out, o.csv, o.plot);
  std::ostream& report = outputs.report();
  std::cerr << notes.str();
  const std::string cpu_name = cpu_model_name();
  std::string gpu_name;
  double read_gbps = 0.0;
  if (uses_gpu) {
    const GpuReadCeiling gpu = measure_gpu_read(report);
    gpu_name = gpu.name;
    read_gbps = gpu.read_gbps;
  }

  std::vector<BenchRow> rows;
  {  // the progress bar, cleared before the tables print
    Progress progress(corpora.size() * o.lengths.size() * list.size());
    std::size_t progress_done = 0;  // contenders measured
    for (const Corpus& corpus : corpora) {
      const std::vector<std::uint8_t> repeated =
          o.mib == 0 ? std::vector<std::uint8_t>() : repeat_to(corpus.bytes, o.mib * kMiB);
      const ByteView text = o.mib == 0 ? ByteView(corpus.bytes) : ByteView(repeated);
      const std::unique_ptr<DeviceText> device_text = uses_gpu ? std::make_unique<DeviceText>(text) : nullptr;
      const TextTraits traits{classify_alphabet(text), text.size};
      for (std::size_t m : o.lengths) {
        if (m > corpus.bytes.size()) continue;
        const auto patterns = draw_patterns(corpus.bytes, m, o.patterns, o.seed);
        // The oracle: brute force, or on texts too large for it to be quick, the CPU matcher the dispatch
        // table picks (each tested against brute force on 100,000 cases).
        const Algorithm fastest_cpu =
            dispatch_range(dispatch_table(Backend::cpu, traits.sample.alphabet, text.size), m).algorithm;
        std::vector<std::uint64_t> expected;
        for (ByteView p : patterns) {
          expected.push_back(text.size <= 64 * kMiB ? brute_force_count(text, p)
                                                    : make_cpu_matcher(fastest_cpu, p)->count(text));
        }
        std::vector<DevicePattern> device_patterns;
        if (uses_gpu) {
          for (ByteView p : patterns) device_patterns.emplace_back(p);
        }
        std::vector<Contender> concrete;
        for (const Contender& listed : list)
          concrete.push_back(listed.automatic ? chosen_for(listed, traits, m) : listed);
        std::vector<const Contender*> on_cpu;
        for (const Contender& c : concrete) {
          if (c.gpu == nullptr) on_cpu.push_back(&c);
        }
        const std::string at = corpus.name + " m=" + std::to_string(m);
        const std::size_t before = progress_done;
        const std::vector<Measurement> cpu_results =
            measure_cpu(on_cpu, text, patterns, expected, [&](std::size_t patterns_done) {
              progress.set(before + on_cpu.size() * patterns_done / patterns.size(), at + " CPU matchers in turn");
            });
        progress_done += on_cpu.size();
        std::size_t next_cpu = 0;
        for (const Contender& c : concrete) {
          if (c.gpu != nullptr) progress.set(++progress_done, at + " " + c.name);
          const Measurement result =
              c.gpu != nullptr ? measure_gpu(c, *device_text, device_patterns, expected) : cpu_results[next_cpu++];
          const TimingStats t = summarize_ms(result.samples_ms);
          const double gbps = gb_per_s(text.size, t.median_ms);
          rows.push_back({corpus.name, corpus.synthetic, text.size, m, c.name, c.backend,
                          c.backend == "cuda" ? gpu_name : cpu_name, t, gbps,
                          c.backend == "cuda" ? percent_of(gbps, read_gbps) : 0.0, result.matches, result.correct,
                          alphabet_name(traits.sample.alphabet), c.chosen});
        }
      }
    }
  }

  const bool all_correct = std::all_of(rows.begin(), rows.end(), [](const BenchRow& r) { return r.correct; });
  for (const Corpus& corpus : corpora) {
    const std::size_t n = o.mib == 0 ? corpus.bytes.size() : o.mib * kMiB;
    report << corpus.name << " (" << n << " bytes" << (o.mib == 0 ? "" : ", the corpus repeated")
           << (corpus.synthetic ? ", SYNTHETIC stand-in" : "") << "): GB/s per search, median of " << o.patterns
           << " patterns drawn from the text\n";
    print_pivot(report, rows, corpus, list, o.lengths, [](const BenchRow& r) { return fixed(r.gbps, 2); });
    if (uses_gpu) {
      report << "the same, microseconds per search (GPU: launches and the count's read-back included)\n";
      print_pivot(report, rows, corpus, list, o.lengths,
                  [](const BenchRow& r) { return fixed(1000.0 * r.time.median_ms, 1); });
      print_speedups(report, rows, corpus, list, o.lengths);
    }
    report << '\n';
  }
  print_auto_report(report, rows, corpora, list, o.lengths);
  report << "Names: ALGO:vN is version N on the GPU (" << (uses_gpu ? gpu_name : "none") << "), a plain name the CPU ("
         << cpu_name << ", one core)";
  for (std::size_t i = 0; i < peers.size(); ++i)
    report << (i == 0 ? "; the peers, what users pick instead: " : ", ") << peers[i];
  report
      << ". Every count was checked: " << (all_correct ? "all correct" : "SOME WRONG (marked)")
      << ". Pattern preprocessing on the host is not timed; a CPU search is timed as the mean of as many calls as fill "
      << kMinCpuSampleMs << " ms, the CPU matchers taking turns pattern by pattern.\n";
  const int written = outputs.finish(rows);
  return written != kExitOk || all_correct ? written : 1;  // trouble (2) first, as in grep
}

}  // namespace

void add_bench_command(CLI::App& app, std::function<int()>& run) {
  auto* bench = app.add_subcommand(
      "bench",
      "Benchmark every algorithm over pattern lengths and corpora (patterns drawn from the text, counts checked\n"
      "against brute force). Corpora come from the datasets cache (python3 datasets/fetch.py); synthetic\n"
      "stand-ins of the same size replace missing ones, and the output says so. With --backend cuda, each\n"
      "algorithm's baseline (v0) and best GPU version, beside the device read bandwidth measured first.");
  bench->footer(
      "With no --backend: on a machine with a GPU, --backend cuda,cpu --batch (the GPU beside the CPU, under a minute\n"
      "on an H100 or H200 machine); without one, the CPU alone, which one line on stderr says. A progress bar shows on "
      "a\n"
      "terminal. The results go to a folder, cudamatch-results/bench-YYYYmmdd-HHMMSS under the current directory\n"
      "unless --out names one: bench.txt (the tables as printed), bench.csv (every measurement) and bench.png (the\n"
      "plot; it needs python3 with matplotlib, and without them one line on stderr says how to get them). --csv and\n"
      "--plot put those two files elsewhere. The last lines of stdout say where each file is, the very last\n"
      "\"results: FOLDER/\". Exit status: 0 every count right, 1 a wrong count, 2 trouble.\n"
      "\n"
      "The peers are the CPU matchers users pick instead: glibc memmem, std::boyer_moore_horspool_searcher\n"
      "(std-bmh) and Hyperscan's literal matcher (hyperscan; --version says whether it is built in). They run\n"
      "by default, in the same tables and CSV, their counts checked like every row's; each searches for one\n"
      "pattern on one core, as the six CPU matchers do. --compare and --no-compare are older spellings of\n"
      "--peers and --no-peers.\n"
      "\n"
      "The auto rows (auto on the CPU, auto:cuda on the GPU) run, for each corpus and m, the matcher that `cudamatch\n"
      "search` picks without -a (the dispatch table, tools/cudamatch/dispatch.json; an m beyond the largest it\n"
      "measured gets that m's pick; the CSV's chosen column names it). A table after the others gives each auto\n"
      "row's GB/s over the fastest single matcher's of the run, and a line says whether it came within 10% of it at\n"
      "every m and corpus. python3 tools/course/dispatch_table.py makes the table again from bench CSVs (README.md,\n"
      "`cudamatch search`). auto is a single-pattern row: --algorithms, auto too, is not for --multi.\n"
      "\n"
      "--multi times multi-pattern search: for each corpus, sets of 10 to 100,000 patterns (--set-sizes) of 8-32 "
      "bytes\n"
      "drawn from it, and as many random ones that never match (checked), counted in the corpus repeated to --mib MiB\n"
      "(default with the GPU 1024, else the corpus as it is). Rows: the GPU's multi-pattern versions (lesson 18's v0 "
      "and\n"
      "best, beside the device read bandwidth measured first), Aho-Corasick (common/) on all host cores, and\n"
      "Hyperscan's literal sets (hs_compile_lit_multi, block mode) on all host cores unless --no-peers; every total\n"
      "checked against Aho-Corasick. A row whose count takes over 2 s (--skip-above) is not run for larger sets.\n"
      "Results as above, the folder named bench-multi-YYYYmmdd-HHMMSS, the plot GB/s against the pattern count.\n"
      "\n"
      "Examples:\n"
      "  cudamatch bench                              the main experiment, results in cudamatch-results/\n"
      "  cudamatch bench --out results/h100           the same, results in results/h100/\n"
      "  cudamatch bench --backend cpu --lengths 4,64 --algorithms ssef,epsm   a quick look at two CPU matchers\n"
      "  cudamatch bench --backend cpu --algorithms ssef --peers hyperscan     SSEF against Hyperscan\n"
      "  cudamatch bench --backend cuda --mib 1024 --patterns 5 --no-peers     device-resident throughput\n"
      "  cudamatch bench --multi                      multi-pattern search, GPU against Hyperscan, 1 GiB of text\n"
      "  cudamatch bench --multi --backend cpu --set-sizes 10,1000 --corpora E.coli   a quick look on the CPU");
  auto o = std::make_shared<BenchOptions>();
  auto* multi = bench->add_flag("--multi", o->multi,
                                "multi-pattern search instead: sets of --set-sizes patterns of 8-32 bytes, drawn from "
                                "each corpus and random ones that never match, on the GPU (lesson 18's v0 and best), "
                                "Aho-Corasick on all cores and Hyperscan's literal sets on all cores");
  bench->add_option("--set-sizes", o->set_sizes, "with --multi: the patterns per set")
      ->delimiter(',')
      ->capture_default_str()
      ->check(CLI::Range(std::size_t{1}, std::size_t{1000000}))
      ->needs(multi);
  bench
      ->add_option("--skip-above", o->skip_above_s,
                   "with --multi: a row whose count takes longer than this many seconds is not run for the larger "
                   "sets (0: run every row at every size)")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 86400.0))
      ->needs(multi);
  bench->add_option("--corpora", o->corpora, "bible.txt, E.coli, world192.txt (default: all three)")->delimiter(',');
  bench->add_option("--lengths", o->lengths, "pattern lengths")->delimiter(',')->capture_default_str()->excludes(multi);
  bench
      ->add_option("--algorithms", o->algorithms,
                   "bf, kmp, bm, sunday, epsm, ssef, optionally :vN, and auto (default: all, and auto)")
      ->delimiter(',')
      ->excludes(multi);
  auto* peers = bench
                    ->add_option("--peers,--compare", o->peers,
                                 "the peers: memmem, std-bmh, hyperscan; no NAME: every one built in, the default. " +
                                     hyperscan_status())
                    ->delimiter(',')
                    ->expected(0, CLI::detail::expected_max_vector_size)
                    ->option_text("[NAME,...]");
  bench->add_flag("--no-peers,--no-compare", o->no_peers, "leave out the peers")->excludes(peers);
  bench->add_option("--patterns", o->patterns, "patterns per length")
      ->check(CLI::Range(std::size_t{1}, std::size_t{100000}))
      ->capture_default_str()
      ->excludes(multi);
  bench
      ->add_option("--backend", o->backends,
                   "cpu, cuda, or cuda,cpu (adds the speedup table); default: cuda,cpu --batch with a GPU, else cpu")
      ->delimiter(',');
  bench
      ->add_option("--mib", o->mib,
                   "repeat each corpus to this many MiB (device-resident throughput; default: as is, with --multi "
                   "1024 when the GPU runs)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 16));
  bench->add_flag("--batch", o->batch, "GPU: also time all patterns of a length queued together, one read-back")
      ->excludes(multi);
  bench
      ->add_flag("--graph", o->graph,
                 "GPU: also time brute force's best version replayed from a CUDA graph (lesson 10), one pattern at a "
                 "time, and with --batch every pattern of a length in one graph, one launch, one wait (gpu_count, "
                 "said on stderr, while lesson 10 is unfinished)")
      ->excludes(multi);
  bench->add_option("--data", o->data_dir, "directory of the corpora (default: $CUDAMATCH_DATA or datasets/cache)");
  bench->add_option("--out", o->out, "the results folder (default: cudamatch-results/bench-YYYYmmdd-HHMMSS)")
      ->option_text("DIR");
  bench->add_option("--csv", o->csv, "every measurement to this CSV file (default: bench.csv in the results folder)")
      ->option_text("FILE");
  bench
      ->add_option("--plot", o->plot,
                   "GB/s against m, one panel per corpus, to this PNG (default: bench.png in the results folder; "
                   "python3 + matplotlib)")
      ->option_text("FILE");
  bench->add_option("--seed", o->seed, "seed of the pattern draw")->capture_default_str();
  bench->callback([&run, o] { run = [o] { return o->multi ? run_bench_multi(*o) : run_bench(*o); }; });
}

}  // namespace cudamatch::cli
