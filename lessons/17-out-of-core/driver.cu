// Lesson 17 - out-of-core search: the experiment. A file of several GiB (a corpus repeated, written
// to a temporary file, read once so that it sits in the page cache) searched end to end by every
// version of the streamed search, in count and positions mode, beside each stage alone: reading the
// page cache into pinned memory (one thread, several), the copy over the link (pinned: the ceiling;
// pageable: what v0 pays), and the search of one device-resident chunk. Every count is checked
// against the CPU.
//
//   ./build/default/bin/17-out-of-core [--mib 4096] [--file PATH] [--corpus bible.txt] [--length 16]
//       [--chunk-mib 8] [--readers R] [--slots K] [--budget-mib B] [--reps 3] [--json FILE]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/cli_parse.hpp"
#include "common/corpus.hpp"
#include "common/driver.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/results_json.hpp"
#include "common/table.hpp"
#include "engine/brute_force_v0.hpp"
#include "engine/stream/registered_file.hpp"
#include "engine/stream/stream_search.hpp"
#include "experiment_input.hpp"
#include "stream_versions.hpp"

using namespace cudamatch;
using namespace lesson17;

namespace {

struct Options {
  std::size_t mib = 4096;
  std::string file;  // search this file instead of writing one
  std::string corpus = "bible.txt";
  std::size_t length = 16;
  std::size_t chunk_mib = 8;
  unsigned readers = default_readers();
  std::size_t slots = 0;
  std::size_t budget_mib = 0;
  int reps = 3;
  std::string json;  // --json FILE
};

// Host wall-clock time of `work`: one untimed run, then `reps` timed ones. The streamed search
// involves host threads and ends with a read-back, so the host clock is the right one here.
TimingStats time_on_host(int reps, const std::function<void()>& work) {
  work();
  std::vector<double> samples;
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    work();
    samples.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  return summarize_ms(samples);
}

// Reads the whole input chunk window by chunk window into pinned buffers, `threads` threads at once
// (thread t takes chunks t, t + threads, ...): the reading stage alone.
void read_everything(ByteSource& source, const ChunkPlan& plan, std::vector<PinnedBuffer<std::uint8_t>>& buffers,
                     unsigned threads) {
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      for (std::uint64_t k = t; source.read(plan.offset(k), buffers[t].data(), plan.window_bytes()) > 0; k += threads) {
      }
    });
  }
  for (std::thread& thread : pool) thread.join();
}

// Reading and copying at the same time, as v2 does: `threads` threads read the whole input as in
// read_everything while this thread copies a pinned buffer to the device, piece after piece, until
// they are done. Alone, each stage has the host's memory to itself; together, the readers' memcpy
// out of the page cache (a read and a write) and the copy engine's read of pinned memory share it.
struct SharedStages {
  TimingStats read;  // the readers' time for the whole input
  TimingStats copy;  // the time to copy as many bytes as the input at the rate measured beside them
};

SharedStages read_while_copying(ByteSource& source, const ChunkPlan& plan,
                                std::vector<PinnedBuffer<std::uint8_t>>& buffers, unsigned threads, int reps) {
  constexpr std::size_t kPiece = 64 * kMiB;  // ~1 ms on a PCIe 5 link: the tail after the readers is short
  PinnedBuffer<std::uint8_t> host(kPiece);
  std::fill(host.data(), host.data() + kPiece, std::uint8_t{0x3C});
  DeviceBuffer<std::uint8_t> device(kPiece);
  const CudaStream stream;
  const double n = static_cast<double>(*source.size());
  std::vector<double> read_ms, copy_ms;
  for (int r = 0; r <= reps; ++r) {  // the first run is a warm-up
    std::atomic<bool> reading{true};
    const auto start = std::chrono::steady_clock::now();
    double read_elapsed = 0.0;
    std::thread readers([&] {
      read_everything(source, plan, buffers, threads);
      read_elapsed = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      reading = false;
    });
    std::uint64_t copied = 0;
    do {  // at least one piece, however quick the readers
      CUDA_CHECK(cudaMemcpyAsync(device.data(), host.data(), kPiece, cudaMemcpyHostToDevice, stream.get()));
      stream.synchronize();
      copied += kPiece;
    } while (reading);
    const double copy_elapsed =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    readers.join();
    if (r == 0) continue;
    read_ms.push_back(read_elapsed);
    copy_ms.push_back(copy_elapsed * n / static_cast<double>(copied));
  }
  return {summarize_ms(read_ms), summarize_ms(copy_ms)};
}

int experiment(const Options& o) {
  const RunContext context = measure_run_context(std::cout);
  const Corpus corpus = load_corpus(o.corpus, default_data_dir(), &std::cerr);
  if (corpus.bytes.size() < o.length) throw std::invalid_argument("the pattern is longer than the corpus");
  Rng rng(13);
  const std::size_t at = rng.below(corpus.bytes.size() - o.length + 1);
  const std::vector<std::uint8_t> pattern(corpus.bytes.begin() + static_cast<long>(at),
                                          corpus.bytes.begin() + static_cast<long>(at + o.length));

  std::unique_ptr<TemporaryCorpusFile> written;
  if (o.file.empty()) {
    std::cout << "writing " << o.mib << " MiB of " << o.corpus << " repeated to a temporary file...\n";
    written = std::make_unique<TemporaryCorpusFile>(corpus.bytes, o.mib * kMiB);
  }
  const std::string path = written ? written->path() : o.file;
  FileSource source(path);
  const std::uint64_t n = *source.size();
  if (n < o.length) throw std::invalid_argument(path + " is shorter than the pattern");
  const std::uint64_t expected = count_on_cpu(source, pattern);  // also brings the file into the page cache

  StreamOptions stream_options;
  stream_options.chunk_bytes = o.chunk_mib * kMiB;
  stream_options.device_budget = o.budget_mib * kMiB;
  stream_options.readers = o.readers;
  stream_options.slots = o.slots;
  const GpuVersion& matcher = brute_force_v0;  // the given brute force (engine/brute_force_v0.cu)
  StreamSearcher searcher(matcher, pattern, stream_options);
  const ChunkPlan& plan = searcher.plan();
  std::cout << path << ": " << n << " bytes (" << o.corpus << (corpus.synthetic ? ", SYNTHETIC stand-in" : "")
            << "), m = " << o.length << ", " << expected << " occurrences (CPU); brute force " << matcher.name
            << " searches\n"
            << plan.chunks(n) << " chunks of " << plan.chunk_bytes << " positions (windows of " << plan.window_bytes()
            << " bytes), a ring of " << searcher.slots() << " slots ("
            << fixed(static_cast<double>(searcher.slots() * device_window_bytes(plan.window_bytes())) / kMiB, 1)
            << " MiB of device memory), " << searcher.readers() << " reader threads in v2; median of " << o.reps
            << " runs\n\n";

  // Each stage alone.
  std::vector<PinnedBuffer<std::uint8_t>> buffers;
  for (unsigned t = 0; t < searcher.readers(); ++t) buffers.emplace_back(plan.window_bytes());
  const TimingStats read_one = time_on_host(o.reps, [&] { read_everything(source, plan, buffers, 1); });
  const TimingStats read_all =
      time_on_host(o.reps, [&] { read_everything(source, plan, buffers, searcher.readers()); });
  const double h2d_pinned = measure_host_to_device_gbps(256 * kMiB);
  const SharedStages shared = read_while_copying(source, plan, buffers, searcher.readers(), o.reps);
  std::vector<std::uint8_t> first_window(plan.window_bytes(0, n));
  source.read(0, first_window.data(), first_window.size());
  DeviceBuffer<std::uint8_t> device_window(std::max<std::size_t>(first_window.size(), 1));
  const TimingStats copy_pageable = time_on_gpu([&](cudaStream_t s) {
    CUDA_CHECK(
        cudaMemcpyAsync(device_window.data(), first_window.data(), first_window.size(), cudaMemcpyHostToDevice, s));
  });
  const DeviceText resident(first_window);
  const DevicePattern device_pattern(pattern);
  const TimingStats search_alone =
      time_on_gpu([&](cudaStream_t s) { gpu_count(matcher, resident, device_pattern, s); });

  // Every version end to end, every run checked. Two cases, one per mode (ids "count" and
  // "positions"); the stages alone are rows of the count case.
  const std::string input = o.corpus + " " + std::to_string(n >> 20) + " MiB m=" + std::to_string(o.length);
  const auto mode_case = [&](const std::string& mode) { return ResultCase{mode, input + " " + mode}; };
  DriverResults results("17-out-of-core", context.device, context.ceilings);
  results.add_ceiling("h2d_pinned", h2d_pinned);
  Table table({"mode", "version / stage", "median ms", "GB/s", "% of pinned copy", "vs v0"});
  const auto stage = [&](const std::string& id, const std::string& name, const TimingStats& t, std::uint64_t bytes) {
    const double gbps = gb_per_s(bytes, t.median_ms);
    table.add_row({"stage", name, fixed(t.median_ms, 3), fixed(gbps, 1), fixed(percent_of(gbps, h2d_pinned), 1), ""});
    results.add({mode_case("count"), id, name, t.median_ms, gbps, std::nullopt});
  };
  stage("read-1-thread", "read, 1 thread", read_one, n);
  stage("read-threads", "read, " + std::to_string(searcher.readers()) + " threads", read_all, n);
  table.add_row({"stage", "copy, pinned (256 MiB)", "", fixed(h2d_pinned, 1), "100.0", ""});
  stage("read-while-copying", "read, " + std::to_string(searcher.readers()) + " threads, while copying", shared.read,
        n);
  stage("copy-while-reading", "copy, pinned, while reading", shared.copy, n);
  stage("copy-pageable", "copy, pageable (one window)", copy_pageable, first_window.size());
  stage("search-resident", "search, one device-resident window", search_alone, first_window.size());
  // v3's price: registering every page of the file with the driver (and unregistering it), with v2's
  // threads and spans; v3 pays it span by span, ahead of the copies.
  {
    const CudaStream copy;
    std::string why_not;
    const auto register_all = [&] {
      const auto pages = RegisteredFile::open(
          source, copy.get(), plan.window_bytes(), searcher.readers(),
          static_cast<std::size_t>(SpanPlan{n, RegisteredFile::kDefaultSpanBytes}.spans()), &why_not);
      if (pages) pages->wait_registered(n);
    };
    register_all();
    if (why_not.empty()) {
      stage("register-pages", "register the file's pages (and unregister)", time_on_host(o.reps, register_all), n);
    } else {
      std::cout << "v3 reads as v2 here: " << why_not << "\n";
    }
  }

  bool valid = true;
  std::vector<double> v2_share, v2_speedup, v3_share;  // count mode, then positions mode
  for (const bool positions_mode : {false, true}) {
    const std::string mode = positions_mode ? "positions" : "count";
    std::optional<double> v0_ms;
    for (const StreamVersion& version : stream_versions()) {
      bool right = true;
      const auto once = [&] {
        std::uint64_t seen = 0, last = 0;
        const auto sink = [&](const std::vector<std::uint64_t>& positions) {
          for (std::uint64_t p : positions) {
            right = right && (seen == 0 || p > last);  // in input order, each once
            last = p;
            ++seen;
          }
        };
        const std::uint64_t count =
            positions_mode ? searcher.positions(version, source, sink) : searcher.count(version, source);
        right = right && count == expected && (!positions_mode || seen == expected);
      };
      const TimingStats t = time_on_host(o.reps, once);  // every run is checked
      if (!right) std::cerr << version.name << " (" << mode << "): wrong result\n";
      valid = valid && right;
      if (!v0_ms) v0_ms = t.median_ms;
      const double gbps = gb_per_s(n, t.median_ms);
      if (version.name == "v2") {
        v2_share.push_back(gbps / h2d_pinned);
        v2_speedup.push_back(*v0_ms / t.median_ms);
      }
      if (version.name == "v3") v3_share.push_back(gbps / h2d_pinned);
      table.add_row({mode, version.name, fixed(t.median_ms, 3), fixed(gbps, 1), fixed(percent_of(gbps, h2d_pinned), 1),
                     fixed(*v0_ms / t.median_ms, 2) + "x"});
      results.add({mode_case(mode), version.name, version.name, t.median_ms, gbps, right});
    }
  }
  table.print(std::cout);

  std::cout << "\nversions:\n";
  for (const StreamVersion& v : stream_versions()) std::cout << "  " << v.name << "  " << v.summary << "\n";
  const double serial_ms = read_one.median_ms +
                           copy_pageable.median_ms * static_cast<double>(n) / static_cast<double>(first_window.size()) +
                           search_alone.median_ms * static_cast<double>(plan.chunks(n));
  const double search_gbps = gb_per_s(first_window.size(), search_alone.median_ms);
  std::cout << "\nv0 predicted as the sum of its stages: " << fixed(gb_per_s(n, serial_ms), 1)
            << " GB/s; v2 bounded by its slowest stage: "
            << fixed(std::min({gb_per_s(n, read_all.median_ms), h2d_pinned, search_gbps}), 1)
            << " GB/s from the stages alone, "
            << fixed(std::min({gb_per_s(n, shared.read.median_ms), gb_per_s(n, shared.copy.median_ms), search_gbps}), 1)
            << " GB/s with reading and copying at the same time\nv2 end to end: " << fixed(100 * v2_share.front(), 1)
            << "% of the pinned host-to-device bandwidth in count mode, " << fixed(100 * v2_share.back(), 1)
            << "% in positions mode (target 80%); " << fixed(v2_speedup.front(), 2) << "x and "
            << fixed(v2_speedup.back(), 2) << "x v0 (target 3x)\nv3 end to end: " << fixed(100 * v3_share.front(), 1)
            << "% of the pinned host-to-device bandwidth in count mode, " << fixed(100 * v3_share.back(), 1)
            << "% in positions mode\n";
  results.save(o.json);
  return valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 17: searching a file larger than GPU memory, streamed through pinned buffers"};
  Options o;
  app.add_option("--mib", o.mib, "size of the file to write, MiB")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20))
      ->capture_default_str();
  app.add_option("--file", o.file, "search this file instead of writing one (it is not deleted)")
      ->check(CLI::ExistingFile);
  app.add_option("--corpus", o.corpus, "corpus to repeat and draw the pattern from (bible.txt, E.coli, world192.txt)")
      ->capture_default_str();
  app.add_option("--length", o.length, "pattern length m")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 20))
      ->capture_default_str();
  app.add_option("--chunk-mib", o.chunk_mib, "positions per chunk, MiB")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 14))
      ->capture_default_str();
  app.add_option("--readers", o.readers, "v2's reader threads")->check(CLI::Range(1u, 256u))->capture_default_str();
  app.add_option("--slots", o.slots, "the ring's slots (0: readers + 2)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1024}))
      ->capture_default_str();
  app.add_option("--budget-mib", o.budget_mib, "device memory for the ring, MiB (0: no budget)")->capture_default_str();
  app.add_option("--reps", o.reps, "timed runs")->check(CLI::Range(1, 1000))->capture_default_str();
  add_json_option(app, o.json);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  return run_driver("17-out-of-core", [&] { return experiment(o); });
}
