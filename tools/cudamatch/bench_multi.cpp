// `cudamatch bench --multi`: multi-pattern search (issue 22) over the number of patterns. For each corpus,
// sets of --set-sizes patterns of 8-32 bytes drawn from it (from the text searched: the corpus, repeated or
// cut to --mib MiB), and as many random patterns that never match
// it (checked), each set counted in the corpus (repeated to --mib MiB) by the GPU's multi-pattern versions
// (lesson 18's baseline and best), Aho-Corasick on all host cores and Hyperscan's literal sets on all host
// cores; every count (the total and each pattern's) checked against Aho-Corasick; tables, a CSV and a plot as bench's
// (bench_outputs.hpp).
//
// Time per count is wall time on the host, as in bench.cpp: for the GPU the launches and the read-back of
// the counts, the text resident on the device; for the CPU the count on all threads. Building a set
// (automaton, database, device tables) is not timed. Each row runs untimed for 50 ms first, then up to 5
// timed counts within about a second; a count that takes longer than a second is the one sample, and a row
// whose count takes longer than --skip-above seconds (2 by default) is not run for the larger sets (lesson
// 18's v0, one pass per pattern, would take minutes at 100,000 patterns).
#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <sstream>
#include <thread>
#include <tuple>

#include "bench_common.hpp"
#include "bench_outputs.hpp"
#include "commands.hpp"
#include "common/bandwidth.hpp"
#include "common/generators.hpp"
#include "common/random.hpp"
#include "common/table.hpp"
#include "gpu_backend.hpp"
#include "matcher_choice.hpp"
#include "multi_counters.hpp"
#include "pattern_source.hpp"
#include "peer_hyperscan.hpp"
#include "peers.hpp"
#include "progress.hpp"

namespace cudamatch::cli {

namespace {

constexpr std::size_t kShortest = 8;  // pattern lengths, uniform in [kShortest, kLongest]
constexpr std::size_t kLongest = 32;
constexpr double kWarmupMs = 50.0;    // untimed counts first, for at least this long (a GPU's clocks ramp up)
constexpr double kBudgetMs = 1000.0;  // timed counts: up to kReps within about this
constexpr std::size_t kReps = 5;
constexpr const char* kAhoCorasick = "aho-corasick";
constexpr const char* kHyperscan = "hyperscan";

enum class Kind { drawn, absent };
constexpr Kind kKinds[] = {Kind::drawn, Kind::absent};
const char* kind_name(Kind kind) { return kind == Kind::drawn ? "drawn" : "absent"; }

// One row of the tables: a GPU version, or a CPU counter on all host cores.
struct Contender {
  std::string name;  // "multi:v0", kAhoCorasick, kHyperscan
  std::string backend;
  const GpuMultiVersion* gpu = nullptr;
};

using PatternBytes = std::vector<std::vector<std::uint8_t>>;

std::vector<ByteView> views_of(const PatternBytes& patterns) { return {patterns.begin(), patterns.end()}; }

std::size_t random_length(Rng& rng) { return kShortest + rng.below(kLongest - kShortest + 1); }

// `count` patterns of 8-32 bytes at uniform starts in `text` (a set may repeat one, as real sets do), so
// each occurs at least once there.
PatternBytes draw_from(ByteView text, std::size_t count, Rng& rng) {
  PatternBytes patterns;
  for (std::size_t k = 0; k < count; ++k) {
    const std::size_t m = std::min(random_length(rng), text.size);
    const std::uint8_t* start = text.data + rng.below(text.size - m + 1);
    patterns.emplace_back(start, start + m);
  }
  return patterns;
}

// The counts of `patterns` in `text`, `corpus` repeated, that every row is checked against: Aho-Corasick
// (common/) on one thread, over each distinct piece of the repeated text once (count_repeated).
PatternCounts reference_counts(const std::vector<ByteView>& patterns, const Corpus& corpus, ByteView text,
                               unsigned threads) {
  return count_repeated(AhoCorasick(patterns), text, corpus.bytes.size(), threads);
}

// `count` random patterns of 8-32 bytes (every byte value), none of which occurs in `text`: the reference
// counts each, and one that occurs is drawn again.
PatternBytes draw_absent(const Corpus& corpus, ByteView text, std::size_t count, Rng& rng, unsigned threads) {
  PatternBytes patterns(count);
  std::vector<std::size_t> redraw(count);
  for (std::size_t k = 0; k < count; ++k) redraw[k] = k;
  for (int round = 0; !redraw.empty(); ++round) {
    if (round == 100) throw std::runtime_error("cannot draw random patterns that are not in the text");
    for (std::size_t k : redraw) patterns[k] = random_bytes(random_length(rng), 256, rng.next());
    const PatternCounts found = reference_counts(views_of(patterns), corpus, text, threads);
    redraw.clear();
    for (std::size_t k = 0; k < count; ++k) {
      if (found.per_pattern[k] > 0) redraw.push_back(k);
    }
  }
  return patterns;
}

struct Measurement {
  std::vector<double> samples_ms;
  std::uint64_t matches = 0;  // the last count's total
  bool correct = true;        // every count, untimed ones too, was `expected`, in total and per pattern
};

// Times `count` as the file's head comment says.
Measurement measure(const std::function<PatternCounts()>& count, const PatternCounts& expected) {
  Measurement result;
  const auto timed = [&] {
    const double start = now_ms();
    const PatternCounts counts = count();
    const double ms = now_ms() - start;
    result.matches = counts.total;
    result.correct = result.correct && counts.total == expected.total && counts.per_pattern == expected.per_pattern;
    return ms;
  };
  const double first = timed();
  if (first > kBudgetMs) {
    result.samples_ms.push_back(first);
    return result;
  }
  for (double warm = first; warm < kWarmupMs;) warm += timed();
  for (double spent = 0.0; result.samples_ms.size() < kReps && spent < kBudgetMs;) {
    result.samples_ms.push_back(timed());
    spent += result.samples_ms.back();
  }
  return result;
}

// The counts of the whole set by `c`, its structures built now (untimed) for `patterns`.
std::function<PatternCounts()> prepare(const Contender& c, const std::vector<ByteView>& patterns, ByteView text,
                                       const DeviceText* device_text, unsigned threads) {
  if (c.gpu != nullptr) {
    std::shared_ptr<GpuPatternSet> set = c.gpu->build(patterns, sample_of(text), nullptr);
    return [set, device_text] { return set->count(*device_text, 0, nullptr); };
  }
  std::shared_ptr<MultiCounter> counter =
      c.name == kHyperscan ? make_hyperscan_multi(patterns, threads) : make_parallel_aho_corasick(patterns, threads);
  return [counter, text] { return counter->count(text); };
}

// Whether Hyperscan's row runs. Of the peers, --multi has hyperscan alone: the others search for one
// pattern at a time.
bool hyperscan_row(const BenchOptions& o, std::ostream& notes) {
  if (o.no_peers) return false;
  const std::vector<std::string> chosen = choose_peers(o.peers, notes);  // unknown names, Hyperscan missing
  for (const std::string& name : o.peers) {
    if (!name.empty() && name != kHyperscan) {
      throw UsageError("--multi: the peer " + name + " searches for one pattern at a time (--multi's peer is " +
                       kHyperscan + ")");
    }
  }
  return std::find(chosen.begin(), chosen.end(), kHyperscan) != chosen.end();
}

// The rows: the GPU's baseline and best where the GPU runs, Aho-Corasick where the CPU does, Hyperscan
// unless --no-peers. Says on `notes` what is left out and why.
std::vector<Contender> contenders(BenchOptions& o, std::ostream& notes) {
  const bool named = !o.backends.empty();
  if (!named) choose_default_backends(o, notes);
  bool gpu = false, cpu = false;
  for (const std::string& name : o.backends) (parse_backend(name) == Backend::cuda ? gpu : cpu) = true;
  const GpuMultiAlgorithm* table = gpu_multi_table();
  if (gpu && table == nullptr) {
    const std::string why = "this build has no multi-pattern search on the GPU (lesson 18)";
    if (named) throw UsageError("--multi --backend cuda: " + why + "; use --backend cpu");
    notes << "cudamatch: no GPU rows: " << why << '\n';
    gpu = false;
  }
  if (gpu) require_gpu_for_bench();
  std::vector<Contender> list;
  if (gpu) {
    list.push_back({std::string("multi:") + table->baseline().name, "cuda", &table->baseline()});
    if (table->versions.size() > 1)
      list.push_back({std::string("multi:") + table->best().name, "cuda", &table->best()});
  }
  if (cpu) list.push_back({kAhoCorasick, "cpu", nullptr});
  if (hyperscan_row(o, notes)) list.push_back({kHyperscan, "cpu", nullptr});
  return list;
}

const MultiBenchRow* find_row(const std::vector<MultiBenchRow>& rows, const std::string& corpus, Kind kind,
                              std::size_t size, const std::string& name) {
  const auto it = std::find_if(rows.begin(), rows.end(), [&](const MultiBenchRow& r) {
    return r.corpus == corpus && r.kind == kind_name(kind) && r.patterns == size && r.contender == name;
  });
  return it == rows.end() ? nullptr : &*it;
}

// GB/s with three significant digits or more: the CPU's rows on large sets run at a few MB/s.
std::string gbps_cell(double gbps) { return fixed(gbps, gbps >= 10 ? 1 : gbps >= 1 ? 2 : 3); }

struct Column {
  std::string header;
  std::function<std::string(std::size_t size)> cell;  // of the set of `size` patterns
};

void print_table(std::ostream& out, const std::vector<std::size_t>& sizes, const std::vector<Column>& columns) {
  std::vector<std::string> headers = {"patterns"};
  for (const Column& c : columns) headers.push_back(c.header);
  Table table(headers);
  for (std::size_t size : sizes) {
    std::vector<std::string> cells = {std::to_string(size)};
    for (const Column& c : columns) cells.push_back(c.cell(size));
    table.add_row(cells);
  }
  table.print(out);
}

}  // namespace

int run_bench_multi(BenchOptions o) {
  std::ostringstream notes;  // said on stderr once the options, the corpora and the results folder are good
  const std::vector<Contender> list = contenders(o, notes);
  const bool uses_gpu = std::any_of(list.begin(), list.end(), [](const Contender& c) { return c.gpu != nullptr; });
  std::vector<std::size_t> sizes = o.set_sizes;  // ascending: a row too slow for one size skips the larger
  std::sort(sizes.begin(), sizes.end());
  sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
  const std::vector<Corpus> corpora = load_bench_corpora(o, notes);
  const std::size_t mib = o.mib != 0 ? o.mib : uses_gpu ? 1024 : 0;
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  BenchOutputs outputs(o.out, o.csv, o.plot, "bench-multi");
  std::ostream& report = outputs.report();
  std::cerr << notes.str();
  const std::string cpu_name = cpu_model_name();
  const GpuReadCeiling gpu = uses_gpu ? measure_gpu_read(report) : GpuReadCeiling{};

  std::vector<MultiBenchRow> rows;
  std::map<std::tuple<std::string, Kind, std::size_t>, std::uint64_t> references;  // the matches of each set
  std::vector<std::string> skipped;                                                // "NAME on CORPUS (KIND) ..."
  {  // the progress bar, cleared before the tables print
    Progress progress(corpora.size() * 2 * sizes.size() * list.size());
    for (const Corpus& corpus : corpora) {
      const std::vector<std::uint8_t> repeated =
          mib == 0 ? std::vector<std::uint8_t>() : repeat_to(corpus.bytes, mib * kMiB);
      const ByteView text = mib == 0 ? ByteView(corpus.bytes) : ByteView(repeated);
      const std::unique_ptr<DeviceText> device_text = uses_gpu ? std::make_unique<DeviceText>(text) : nullptr;
      for (Kind kind : kKinds) {
        std::vector<bool> too_slow(list.size(), false);
        for (std::size_t size : sizes) {
          Rng rng(o.seed * 1000003 + size * 2 + (kind == Kind::absent ? 1 : 0));
          const PatternBytes patterns =
              kind == Kind::drawn ? draw_from(text, size, rng) : draw_absent(corpus, text, size, rng, threads);
          const std::vector<ByteView> views = views_of(patterns);
          const auto [shortest, longest] = std::minmax_element(
              views.begin(), views.end(), [](const ByteView& a, const ByteView& b) { return a.size < b.size; });
          const PatternCounts expected = kind == Kind::drawn ? reference_counts(views, corpus, text, threads)
                                                             : PatternCounts{0, std::vector<std::uint64_t>(size)};
          references[{corpus.name, kind, size}] = expected.total;
          for (std::size_t i = 0; i < list.size(); ++i) {
            const Contender& c = list[i];
            progress.advance(corpus.name + " " + kind_name(kind) + " " + std::to_string(size) + " " + c.name);
            if (too_slow[i]) continue;
            const Measurement result = measure(prepare(c, views, text, device_text.get(), threads), expected);
            const TimingStats t = summarize_ms(result.samples_ms);
            const double gbps = gb_per_s(text.size, t.median_ms);
            const bool on_gpu = c.gpu != nullptr;
            rows.push_back({corpus.name, corpus.synthetic, text.size, kind_name(kind), size, shortest->size,
                            longest->size, c.name, c.backend, on_gpu ? gpu.name : cpu_name, on_gpu ? 0u : threads, t,
                            gbps, on_gpu ? percent_of(gbps, gpu.read_gbps) : 0.0, result.matches, result.correct});
            if (o.skip_above_s > 0 && t.median_ms > 1000.0 * o.skip_above_s && size != sizes.back()) {
              too_slow[i] = true;
              skipped.push_back(c.name + " on " + corpus.name + " (" + kind_name(kind) + ") above " +
                                std::to_string(size) + " patterns (" + fixed(t.median_ms / 1000.0, 1) +
                                " s a count there)");
            }
          }
        }
      }
    }
  }

  const bool all_correct = std::all_of(rows.begin(), rows.end(), [](const MultiBenchRow& r) { return r.correct; });
  const auto named = [&](const std::string& name) {
    return std::any_of(list.begin(), list.end(), [&](const Contender& c) { return c.name == name; });
  };
  for (const Corpus& corpus : corpora) {
    for (Kind kind : kKinds) {
      const auto row = [&](std::size_t size, const std::string& name) {
        return find_row(rows, corpus.name, kind, size, name);
      };
      const std::size_t n = mib == 0 ? corpus.bytes.size() : mib * kMiB;
      report << corpus.name << ", "
             << (kind == Kind::drawn ? "patterns of 8-32 bytes drawn from it"
                                     : "random patterns of 8-32 bytes not in it")
             << " (" << n << " bytes" << (mib == 0 ? "" : ", the corpus repeated")
             << (corpus.synthetic ? ", SYNTHETIC stand-in" : "") << "): GB/s of a count of the whole set\n";
      std::vector<Column> columns = {{"matches", [&](std::size_t size) {
                                        return std::to_string(references.at({corpus.name, kind, size}));
                                      }}};
      for (const Contender& c : list) {
        columns.push_back({c.name, [&, name = c.name](std::size_t size) {
                             const MultiBenchRow* r = row(size, name);
                             return r == nullptr ? std::string("skipped")
                                                 : gbps_cell(r->gbps) + (r->correct ? "" : " WRONG");
                           }});
      }
      print_table(report, sizes, columns);
      if (uses_gpu) {
        // The GPU's share of its read bandwidth, and its fastest version against the CPU rows.
        std::vector<Column> gpu_columns;
        for (const Contender& c : list) {
          if (c.gpu == nullptr) continue;
          gpu_columns.push_back({c.name + " % of read", [&, name = c.name](std::size_t size) {
                                   const MultiBenchRow* r = row(size, name);
                                   return r == nullptr ? std::string("-") : fixed(r->pct_of_read, 1) + "%";
                                 }});
        }
        for (const char* cpu_row : {kAhoCorasick, kHyperscan}) {
          if (!named(cpu_row)) continue;
          gpu_columns.push_back({std::string("GPU best / ") + cpu_row, [&, cpu_row](std::size_t size) {
                                   double fastest = 0.0;
                                   for (const Contender& c : list) {
                                     const MultiBenchRow* r = c.gpu == nullptr ? nullptr : row(size, c.name);
                                     if (r != nullptr && r->correct) fastest = std::max(fastest, r->gbps);
                                   }
                                   const MultiBenchRow* other = row(size, cpu_row);
                                   return fastest == 0.0 || other == nullptr || other->gbps == 0.0
                                              ? std::string("-")
                                              : fixed(fastest / other->gbps, 1) + "x";
                                 }});
        }
        print_table(report, sizes, gpu_columns);
      }
      report << '\n';
    }
  }
  for (const Contender& c : list) {
    if (c.gpu != nullptr)
      report << c.name << ": lesson 18's " << c.gpu->name << " on the GPU, " << c.gpu->summary << '\n';
  }
  if (named(kAhoCorasick))
    report << kAhoCorasick << ": common/aho_corasick.hpp on " << threads << " threads of the CPU (" << cpu_name
           << ")\n";
  if (named(kHyperscan))
    report << kHyperscan << ": Hyperscan " << hyperscan_version().value_or("")
           << ", hs_compile_lit_multi in block mode, on " << threads << " threads\n";
  for (const std::string& s : skipped) {
    report << "not run (a count took over " << o.skip_above_s << " s at a smaller set, --skip-above): " << s << '\n';
  }
  report << "Every count, in total and per pattern, was checked against Aho-Corasick's: "
         << (all_correct ? "all correct" : "SOME WRONG (marked)")
         << ". Building the sets is not timed; the GPU's counts include their launches and read-back.\n";
  const int written = outputs.finish(rows);
  return written != kExitOk || all_correct ? written : 1;  // trouble (2) first, as in grep
}

}  // namespace cudamatch::cli
