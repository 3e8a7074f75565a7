// Lesson 10 - launch overhead and CUDA graphs: the experiment. One count of a pattern in a 4 MB corpus,
// end to end on the host's clock (steady_clock, median after warm-up), taken apart step by step: an
// empty launch, the same with a synchronize, the search kernel alone (CUDA events), the search with an
// event, with a memset and a cudaMemcpy of the count, with the count published to mapped memory
// (synchronized or polled), replayed from a CUDA graph; then B searches one after another against the
// same B in one graph. Every count a step reads is checked against the CPU's (an index of the text's
// m-byte substrings, itself checked against the CPU brute force). The graph replays (SearchGraph, which
// runs the student's capture) search a pattern drawn anew for every call, untimed, from a random offset
// of the text; the steps that run only given code cycle through a pool of 1024 patterns uploaded first.
// The draws derive from --seed N or --seed-stdin (the grader's seed, new in every run).
//
//   ./build/default/bin/10-launch-overhead [--corpora bible.txt,E.coli] [--m 16] [--batch 64]
//                                          [--small-kib 256] [--reps 300] [--seed N | --seed-stdin]
//                                          [--json FILE]
#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/brute_force.hpp"
#include "common/cli_parse.hpp"
#include "common/corpus.hpp"
#include "common/driver.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/results_json.hpp"
#include "common/seed.hpp"
#include "common/table.hpp"
#include "engine/brute_force_v0.hpp"
#include "graph_search.hpp"

using namespace cudamatch;
using namespace cudamatch::lesson10;

namespace {

struct Options {
  std::vector<std::string> corpora = {"bible.txt", "E.coli"};
  std::size_t m = 16;
  std::size_t batch = 64;
  std::size_t small_kib = 256;  // also the first corpus's first KiB: a kernel of about a microsecond
  int reps = 300;
  int warmup = 20;
  SeedOptions seed;  // --seed N, --seed-stdin
  std::string json_path;
};

// Every m-byte substring of a text, sorted: the count of any pattern of m bytes by binary search, so
// that a pattern drawn for each timed call has its right count without a search of the whole text.
class SubstringIndex {
 public:
  SubstringIndex(const std::vector<std::uint8_t>& text, std::size_t m) : text_(text), m_(m) {
    if (m_ == 0 || m_ > text_.size()) return;
    starts_.resize(text_.size() - m_ + 1);
    for (std::size_t i = 0; i < starts_.size(); ++i) starts_[i] = i;
    std::sort(starts_.begin(), starts_.end(), [&](std::size_t a, std::size_t b) { return compare(a, b) < 0; });
  }
  std::uint64_t count(ByteView pattern) const {
    if (pattern.size != m_ || starts_.empty()) return brute_force_count(text_, pattern);
    const auto below = [&](std::size_t start, ByteView p) { return std::memcmp(text_.data() + start, p.data, m_) < 0; };
    const auto above = [&](ByteView p, std::size_t start) { return std::memcmp(p.data, text_.data() + start, m_) < 0; };
    const auto first = std::lower_bound(starts_.begin(), starts_.end(), pattern, below);
    return static_cast<std::uint64_t>(std::upper_bound(first, starts_.end(), pattern, above) - first);
  }

 private:
  int compare(std::size_t a, std::size_t b) const { return std::memcmp(text_.data() + a, text_.data() + b, m_); }
  const std::vector<std::uint8_t>& text_;
  std::size_t m_;
  std::vector<std::size_t> starts_;
};

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The median host wall time of `step(i)` (i counts every call, warm-up included): `warmup` calls and
// at least 20 ms of them untimed first (clocks ramp up, lazy loading), then `reps` timed calls, each
// preceded by `before(i)` (e.g. new patterns drawn) and followed by `after(i)` (e.g. a synchronize for
// a step that does not wait, a count read back) outside the timed interval.
TimingStats host_wall(const Options& o, const std::function<void(int)>& step,
                      const std::function<void(int)>& after = {}, const std::function<void(int)>& before = {}) {
  int i = 0;
  const auto warm_start = std::chrono::steady_clock::now();
  for (; i < o.warmup || ms_since(warm_start) < 20.0; ++i) {
    if (before) before(i);
    step(i);
    if (after) after(i);
  }
  std::vector<double> samples;
  for (int r = 0; r < o.reps; ++r, ++i) {
    if (before) before(i);
    const auto start = std::chrono::steady_clock::now();
    step(i);
    samples.push_back(ms_since(start));
    if (after) after(i);
  }
  return summarize_ms(samples);
}

struct Step {
  std::string id;
  std::string label;
  std::optional<TimingStats> host;  // empty: the step failed (see `error`)
  std::optional<double> device_ms;  // CUDA events, where the step has GPU work of its own
  std::size_t searches = 1;         // per timed call (0: no search, the empty kernel)
  bool valid = true;
  std::string error;
};

// Runs `measure`, which times a step and returns whether every count it saw was right; a step that
// throws (an unfinished TODO) is reported as failed, and the experiment goes on.
Step run_step(const std::string& id, const std::string& label, std::size_t searches,
              const std::function<bool(Step&)>& measure) {
  Step step{id, label, std::nullopt, std::nullopt, searches, true, ""};
  try {
    step.valid = measure(step);
  } catch (const std::exception& e) {
    step.host.reset();
    step.valid = false;
    step.error = e.what();
    cudaGetLastError();
  }
  return step;
}

int experiment(const Options& o, std::uint64_t seed) {
  const RunContext context = measure_run_context(std::cout);
  const double floor_ms = context.ceilings.launch_floor_ms;
  DriverResults results("10-launch-overhead", context.device, context.ceilings);
  bool all_valid = true;
  const GpuVersion& version = brute_force_v0;

  // The corpora, and the first corpus's first small_kib KiB: there the kernel is as short as the best
  // matchers' on the whole corpus, and what surrounds it is most of the time.
  struct Input {
    std::string name, id;
    std::vector<std::uint8_t> bytes;
    bool synthetic;
  };
  std::vector<Input> inputs;
  for (const std::string& corpus_name : o.corpora) {
    Corpus corpus = load_corpus(corpus_name, default_data_dir(), &std::cerr);
    inputs.push_back({corpus.name, result_id_of(corpus.name), std::move(corpus.bytes), corpus.synthetic});
  }
  if (o.small_kib > 0 && !inputs.empty() && inputs.front().bytes.size() > o.small_kib * 1024) {
    const Input& first = inputs.front();
    const std::string kib = std::to_string(o.small_kib);
    inputs.push_back({first.name + " first " + kib + " KiB", first.id + "-" + kib + "kib",
                      std::vector<std::uint8_t>(first.bytes.begin(), first.bytes.begin() + o.small_kib * 1024),
                      first.synthetic});
  }

  for (const Input& corpus : inputs) {
    const std::vector<std::uint8_t>& bytes = corpus.bytes;
    const std::size_t n = bytes.size();
    const std::size_t m = std::min(o.m, n);
    const DeviceText text(bytes);
    // The right count of any m bytes of the text, checked against the CPU brute force on a few.
    const SubstringIndex index(bytes, m);
    Rng rng(seed * 7919 + n);
    const auto draw = [&] { return ByteView(bytes.data() + rng.below(n - m + 1), m); };
    for (int k = 0; k < 4; ++k) {
      const ByteView p = draw();
      if (index.count(p) != brute_force_count(bytes, p)) throw std::logic_error("the substring index miscounts");
    }
    // The pool of the steps that run only given code (the engine's search, uploaded patterns): a timed
    // call searches the next, with its count from the index.
    const std::size_t pool_size = 1024;
    std::vector<ByteView> pool;
    std::vector<std::uint64_t> expected;
    for (std::size_t p = 0; p < pool_size; ++p) {
      pool.push_back(draw());
      expected.push_back(index.count(pool.back()));
    }
    std::vector<DevicePattern> device_pool;
    for (ByteView p : pool) device_pool.emplace_back(p);
    const auto at = [&](int i) { return static_cast<std::size_t>(i) % pool_size; };
    // The graph steps' patterns: drawn anew before every call (outside the timed interval), with their
    // counts, so that no count can be remembered from an earlier call.
    std::vector<ByteView> fresh;
    std::vector<std::uint64_t> fresh_expected;
    const auto draw_fresh = [&](std::size_t count) {
      fresh.clear();
      fresh_expected.clear();
      for (std::size_t k = 0; k < count; ++k) {
        fresh.push_back(draw());
        fresh_expected.push_back(index.count(fresh.back()));
      }
    };

    CudaStream owned;
    const cudaStream_t s = owned.get();
    DeviceBuffer<unsigned long long> counter(1);
    counter.fill_bytes(0);
    MappedCounts mapped;
    mapped.ensure(1);
    bool wrong = false;  // set by any step that reads a wrong count
    const auto check = [&](std::uint64_t found, int i) {
      if (found != expected[at(i)]) wrong = true;
    };
    const auto check_fresh = [&](std::uint64_t found, std::size_t k) {
      if (found != fresh_expected.at(k)) wrong = true;
    };
    const auto sync = [&](int) { CUDA_CHECK(cudaStreamSynchronize(s)); };

    std::vector<Step> steps;
    steps.push_back(run_step("empty-launch", "empty kernel: the launch call alone", 0, [&](Step& st) {
      st.host = host_wall(
          o, [&](int) { launch_empty(s); }, sync);
      return true;
    }));
    steps.push_back(run_step("empty-launch-sync", "empty kernel + cudaStreamSynchronize", 0, [&](Step& st) {
      st.host = host_wall(o, [&](int) {
        launch_empty(s);
        CUDA_CHECK(cudaStreamSynchronize(s));
      });
      st.device_ms = floor_ms;
      return true;
    }));
    steps.push_back(run_step("kernel", "search kernel alone (CUDA events)", 1, [&](Step& st) {
      wrong = false;
      check(gpu_count(version, text, device_pool[0], s), 0);
      int i = 0;
      TimingOptions timing;
      timing.reps = o.reps;
      const TimingStats t = time_on_gpu(
          [&](cudaStream_t stream) { version.enqueue_count(text, device_pool[at(i++)], counter.data(), stream); },
          timing, s);
      st.host = t;  // this row's time is the GPU's
      st.device_ms = t.median_ms;
      check(gpu_count(version, text, device_pool[1], s), 1);
      return !wrong;
    }));
    steps.push_back(run_step("launch-event-sync", "search + event record + cudaEventSynchronize", 1, [&](Step& st) {
      wrong = false;
      CudaEvent done;
      counter.fill_bytes(0);
      st.host = host_wall(
          o,
          [&](int i) {
            version.enqueue_count(text, device_pool[at(i)], counter.data(), s);
            done.record(s);
            CUDA_CHECK(cudaEventSynchronize(done.get()));
          },
          [&](int i) {  // untimed: the count read back and checked, the counter zeroed
            unsigned long long found = 0;
            counter.download(&found, 1);
            check(found, i);
            counter.fill_bytes(0);
          });
      return !wrong;
    }));
    steps.push_back(run_step("memset-launch-memcpy", "memset + search + cudaMemcpy of the count", 1, [&](Step& st) {
      wrong = false;
      st.host = host_wall(o, [&](int i) {
        unsigned long long found = 0;
        CUDA_CHECK(cudaMemsetAsync(counter.data(), 0, sizeof found, s));
        version.enqueue_count(text, device_pool[at(i)], counter.data(), s);
        CUDA_CHECK(cudaMemcpyAsync(&found, counter.data(), sizeof found, cudaMemcpyDeviceToHost, s));
        CUDA_CHECK(cudaStreamSynchronize(s));
        check(found, i);
      });
      return !wrong;
    }));
    steps.push_back(run_step("gpu-count", "engine gpu_count: search + publish to mapped + sync", 1, [&](Step& st) {
      wrong = false;
      st.host = host_wall(o, [&](int i) { check(gpu_count(version, text, device_pool[at(i)], s), i); });
      return !wrong;
    }));
    steps.push_back(run_step("mapped-poll", "search + publish to mapped, host polls", 1, [&](Step& st) {
      wrong = false;
      st.host = host_wall(o, [&](int i) {
        const unsigned long long next = mapped.sequence() + 1;
        version.enqueue_count(text, device_pool[at(i)], mapped.device(), s);
        mapped.enqueue_publish(1, s);
        mapped.poll_until(next, s);
        check(mapped.host()[1], i);
      });
      return !wrong;
    }));
    for (Wait wait : {Wait::synchronize, Wait::poll}) {
      const bool poll = wait == Wait::poll;
      steps.push_back(run_step(
          poll ? "graph-poll" : "graph-sync",
          poll ? "graph replay, host polls mapped" : "graph replay + cudaStreamSynchronize", 1, [&](Step& st) {
            wrong = false;
            SearchGraph search(version, wait);
            st.host = host_wall(
                o, [&](int) { check_fresh(search.count(text, fresh[0]), 0); }, {}, [&](int) { draw_fresh(1); });
            const cudaGraphExec_t exec = search.exec();
            TimingOptions timing;
            timing.reps = o.reps;
            st.device_ms =
                time_on_gpu([&](cudaStream_t stream) { CUDA_CHECK(cudaGraphLaunch(exec, stream)); }, timing, s)
                    .median_ms;
            return !wrong && search.captures() == 1;
          }));
    }
    const std::string b = std::to_string(o.batch);
    steps.push_back(run_step("loop-" + b, b + " x gpu_count, one after another", o.batch, [&](Step& st) {
      wrong = false;
      st.host = host_wall(o, [&](int i) {
        for (std::size_t k = 0; k < o.batch; ++k) {
          const int j = static_cast<int>(i * o.batch + k);
          check(gpu_count(version, text, device_pool[at(j)], s), j);
        }
      });
      return !wrong;
    }));
    steps.push_back(run_step("graph-loop-" + b, b + " x graph replay, one after another", o.batch, [&](Step& st) {
      wrong = false;
      SearchGraph search(version);
      st.host = host_wall(
          o,
          [&](int) {
            for (std::size_t k = 0; k < o.batch; ++k) check_fresh(search.count(text, fresh[k]), k);
          },
          {}, [&](int) { draw_fresh(o.batch); });
      return !wrong && search.captures() == 1;
    }));
    steps.push_back(run_step("batch-" + b, b + " searches in one graph, one launch", o.batch, [&](Step& st) {
      wrong = false;
      SearchGraph search(version);
      st.host = host_wall(
          o,
          [&](int) {
            const std::vector<std::uint64_t> found = search.count_batch(text, fresh);
            for (std::size_t k = 0; k < o.batch; ++k) check_fresh(found[k], k);
          },
          {}, [&](int) { draw_fresh(o.batch); });
      const cudaGraphExec_t exec = search.exec();
      TimingOptions timing;
      timing.reps = std::max(o.reps / 10, 5);
      st.device_ms =
          time_on_gpu([&](cudaStream_t stream) { CUDA_CHECK(cudaGraphLaunch(exec, stream)); }, timing, s).median_ms;
      return !wrong && search.captures() == 1;
    }));

    // The table: per search, against the kernel and the launch floor of this run.
    const ResultCase input{corpus.id + "-m" + std::to_string(m), corpus.name + " m=" + std::to_string(m)};
    double kernel_ms = 0.0;
    for (const Step& st : steps) {
      if (st.id == "kernel" && st.host) kernel_ms = st.host->median_ms;
    }
    std::cout << corpus.name << " (" << n << " bytes" << (corpus.synthetic ? ", SYNTHETIC stand-in" : "")
              << "), pattern length " << m << ", engine brute force v0, median of " << o.reps
              << " calls after warm-up; every count checked\n";
    Table table({"step", "host us/search", "device us", "x kernel", "x empty launch+sync", "verdict"});
    double floor_sync_ms = 0.0;
    for (const Step& st : steps) {
      if (st.id == "empty-launch-sync" && st.host) floor_sync_ms = st.host->median_ms;
    }
    for (const Step& st : steps) {
      const double calls = static_cast<double>(std::max<std::size_t>(st.searches, 1));
      const double per = st.host ? st.host->median_ms / calls : 0.0;
      std::string verdict = st.valid ? "" : "WRONG or FAILED";
      if (!st.error.empty()) verdict = "FAILED: " + st.error.substr(0, 60);
      table.add_row({st.label, st.host ? fixed(1000.0 * per, 2) : "-",
                     st.device_ms ? fixed(1000.0 * *st.device_ms / calls, 2) : "-",
                     st.host && kernel_ms > 0 ? fixed(per / kernel_ms, 1) : "-",
                     st.host && floor_sync_ms > 0 ? fixed(per / floor_sync_ms, 2) : "-", verdict});
      results.add({input, st.id, st.label, st.host ? std::optional<double>(st.host->median_ms) : std::nullopt,
                   st.host && st.searches > 0 ? std::optional<double>(gb_per_s(n * st.searches, st.host->median_ms))
                                              : std::nullopt,
                   st.valid});
      all_valid = all_valid && st.valid;
    }
    table.print(std::cout);
    const auto per_search_us = [&](const std::string& id) {
      for (const Step& st : steps) {
        if (st.id == id && st.host)
          return 1000.0 * st.host->median_ms / static_cast<double>(std::max<std::size_t>(st.searches, 1));
      }
      return 0.0;
    };
    std::cout << "launch floor (empty kernel between events, this run): " << fixed(1000.0 * floor_ms, 2)
              << " us; kernel " << fixed(1000.0 * kernel_ms, 2) << " us\n"
              << "one search end to end: memset+launch+memcpy " << fixed(per_search_us("memset-launch-memcpy"), 2)
              << " us, graph replay " << fixed(per_search_us("graph-sync"), 2) << " us (polled "
              << fixed(per_search_us("graph-poll"), 2) << "), target <= 8 us\n"
              << "batched: " << fixed(per_search_us("batch-" + b), 2) << " us per search in a graph of " << b
              << " (loop of gpu_count: " << fixed(per_search_us("loop-" + b), 2) << "), target <= 3 us\n\n";
  }
  results.save(o.json_path);
  return all_valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 10: the cost of one small search end to end, step by step; CUDA graphs and batches"};
  Options o;
  std::vector<std::string> corpus_names;
  for (const CorpusSpec& spec : corpus_specs()) corpus_names.push_back(spec.name);
  app.add_option("--corpora", o.corpora, "corpora (bible.txt, E.coli, world192.txt)")
      ->delimiter(',')
      ->check(CLI::IsMember(corpus_names))
      ->capture_default_str();
  app.add_option("--m", o.m, "pattern length")
      ->check(CLI::Range(std::size_t{1}, std::size_t{4096}))
      ->capture_default_str();
  app.add_option("--batch", o.batch, "searches per batch")
      ->check(CLI::Range(std::size_t{1}, std::size_t{4096}))
      ->capture_default_str();
  app.add_option("--small-kib", o.small_kib, "also the first corpus's first KiB (0: not)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 20))
      ->capture_default_str();
  app.add_option("--reps", o.reps, "timed calls per step")->check(CLI::Range(1, 1000000))->capture_default_str();
  app.add_option("--warmup", o.warmup, "untimed calls first")->check(CLI::Range(0, 100000))->capture_default_str();
  add_seed_options(app, o.seed);
  add_json_option(app, o.json_path);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  const std::optional<std::uint64_t> seed = resolve_seed(o.seed, std::cin, std::cerr, "10-launch-overhead");
  if (!seed) return 2;
  return run_driver("10-launch-overhead", [&] { return experiment(o, *seed); });
}
