// Lesson 06 - streams: the experiment. Host data through copy-in, compute and copy-out, first one
// stage after the other, then chunked over several streams so that the stages overlap; each stage
// alone, pinned against pageable copies, and a timeline of both asynchronous schedules.
//
//   ./build/default/bin/06-streams [--mib M] [--chunks C] [--streams S] [--iterations I] [--reps N] [--json FILE]
#include <algorithm>
#include <functional>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "common/bandwidth.hpp"
#include "common/buffers.hpp"
#include "common/cli_parse.hpp"
#include "common/driver.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/results_json.hpp"
#include "schedules.hpp"

using namespace cudamatch;

namespace {

struct Options {
  std::size_t mib = 256;
  std::size_t chunks = 32;
  std::size_t streams = 4;
  int iterations = 0;  // 0: choose so that the kernel takes about as long as the copy in
  TimingOptions timing;
  std::string json;  // --json FILE
};

int experiment(const Options& o) {
  const RunContext context = measure_run_context(std::cout);
  const std::size_t n = o.mib * kMiB / sizeof(std::uint32_t);
  const std::uint64_t bytes = n * sizeof(std::uint32_t);
  PinnedBuffer<std::uint32_t> in(n), out(n);
  Rng rng(6);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<std::uint32_t>(rng.next());
  std::vector<std::uint32_t> pageable(in.data(), in.data() + n);
  DeviceBuffer<std::uint32_t> dev_in(n), dev_out(n);
  std::vector<CudaStream> owned(o.streams);
  std::vector<cudaStream_t> streams;
  for (const CudaStream& s : owned) streams.push_back(s.get());
  cudaStream_t main_stream = streams[0];
  const Chunk all{0, n};
  const auto chunks = split_into_chunks(n, (n + o.chunks - 1) / o.chunks);

  // Runs `work` so that all of it lies between events recorded on stream `s`: the other streams wait
  // for `s` before it and `s` waits for them after it.
  CudaEvent fork, join;
  const auto on_all_streams = [&](cudaStream_t s, const std::function<void()>& work) {
    fork.record(s);
    for (cudaStream_t other : streams) CUDA_CHECK(cudaStreamWaitEvent(other, fork.get()));
    work();
    for (cudaStream_t other : streams) {
      join.record(other);
      CUDA_CHECK(cudaStreamWaitEvent(s, join.get()));
    }
  };
  const auto time = [&](const std::function<void(cudaStream_t)>& work, TimingOptions timing) {
    return time_on_gpu([&](cudaStream_t s) { on_all_streams(s, [&] { work(s); }); }, timing, main_stream);
  };

  // Calibrate the kernel: as long as the copy in, so that no stage dominates.
  const TimingStats h2d = time(
      [&](cudaStream_t s) { Pipeline(in.data(), out.data(), dev_in.data(), dev_out.data(), 0).copy_to_device(all, s); },
      o.timing);
  int iterations = o.iterations;
  if (iterations == 0) {
    const int probe = 256;
    const TimingStats k = time(
        [&](cudaStream_t s) { Pipeline(in.data(), out.data(), dev_in.data(), dev_out.data(), probe).compute(all, s); },
        o.timing);
    iterations = std::max(1, static_cast<int>(probe * h2d.median_ms / k.median_ms));
  }
  Pipeline pipeline(in.data(), out.data(), dev_in.data(), dev_out.data(), iterations);

  // Checks every 997th element and the first and last 64 of every chunk (where a wrong offset or a
  // short last chunk shows), then clears the output. Not every element: the reference runs
  // `iterations` (thousands) steps per element on the CPU, and checking a whole chunk of 2 Mi
  // elements took seconds per validation.
  const auto validate = [&](const char* name) {
    std::size_t wrong = 0;
    const auto check = [&](std::size_t i) { wrong += out[i] != compute_reference(in[i], iterations); };
    for (std::size_t i = 0; i < n; i += 997) check(i);
    constexpr std::size_t kEdge = 64;
    for (const Chunk& c : chunks) {
      const std::size_t end = c.first + c.count;
      const std::size_t head_end = c.first + std::min(c.count, kEdge);
      for (std::size_t i = c.first; i < head_end; ++i) check(i);
      for (std::size_t i = std::max(head_end, end - std::min(c.count, kEdge)); i < end; ++i) check(i);
    }
    if (wrong != 0) std::cerr << name << ": " << wrong << " wrong results\n";
    std::fill(out.data(), out.data() + n, 0u);
    return wrong == 0;
  };

  Table table({"version", "median ms", "GB/s", "vs sequential", "vs slowest stage"});
  const TimingStats pageable_h2d = time(
      [&](cudaStream_t s) {
        CUDA_CHECK(cudaMemcpyAsync(dev_in.data(), pageable.data(), bytes, cudaMemcpyHostToDevice, s));
      },
      o.timing);
  const TimingStats kernel = time([&](cudaStream_t s) { pipeline.compute(all, s); }, o.timing);
  const TimingStats d2h = time([&](cudaStream_t s) { pipeline.copy_to_host(all, s); }, o.timing);
  const double slowest = std::max({h2d.median_ms, kernel.median_ms, d2h.median_ms});

  // Runs a schedule once and checks it, times it, and checks what the timed runs left.
  struct Checked {
    TimingStats time;
    bool valid;
  };
  // Every timed run starts from poisoned device buffers, so a schedule that skips a copy in or a
  // kernel (the device still holding the last run's data) leaves wrong results for the check.
  TimingOptions poisoned = o.timing;
  poisoned.before_each = [&](cudaStream_t s) {
    CUDA_CHECK(cudaMemsetAsync(dev_in.data(), 0xFF, bytes, s));
    CUDA_CHECK(cudaMemsetAsync(dev_out.data(), 0xFF, bytes, s));
  };
  const auto checked = [&](const char* name, const std::function<void(cudaStream_t)>& schedule) {
    schedule(main_stream);
    CUDA_CHECK(cudaDeviceSynchronize());
    const bool valid_before = validate(name);
    const TimingStats t = time(schedule, poisoned);
    CUDA_CHECK(cudaDeviceSynchronize());
    return Checked{t, validate(name) && valid_before};
  };
  const Checked sequential = checked("sequential", [&](cudaStream_t s) { run_sequential(pipeline, n, s); });
  const Checked v1 = checked("async v1", [&](cudaStream_t) { run_async_v1(pipeline, chunks, streams); });
  const Checked v2 = checked("async v2", [&](cudaStream_t) { run_async_v2(pipeline, chunks, streams); });
  const bool valid = sequential.valid && v1.valid && v2.valid;

  DriverResults results("06-streams", context.device, context.ceilings);
  results.add_ceiling("h2d_pinned", gb_per_s(bytes, h2d.median_ms));
  results.add_ceiling("d2h_pinned", gb_per_s(bytes, d2h.median_ms));
  // The single stages' outputs are not checked: their rows have no `valid` in the results file.
  const ResultCase input{std::to_string(o.mib) + "mib", std::to_string(o.mib) + " MiB"};
  const auto row = [&](const std::string& id, const std::string& name, const TimingStats& t, std::uint64_t moved,
                       std::optional<bool> checked_right) {
    table.add_row({name, fixed(t.median_ms, 3), moved ? fixed(gb_per_s(moved, t.median_ms), 1) : "",
                   fixed(sequential.time.median_ms / t.median_ms, 2) + "x", fixed(t.median_ms / slowest, 2) + "x"});
    results.add({input, id, name, t.median_ms,
                 moved ? std::optional<double>(gb_per_s(moved, t.median_ms)) : std::nullopt, checked_right});
  };
  row("copy-in-pageable", "copy in alone, pageable memory", pageable_h2d, bytes, std::nullopt);
  row("copy-in-pinned", "copy in alone, pinned memory", h2d, bytes, std::nullopt);
  row("kernel", "kernel alone (" + std::to_string(iterations) + " iterations)", kernel, 0, std::nullopt);
  row("copy-out-pinned", "copy out alone, pinned memory", d2h, bytes, std::nullopt);
  row("sequential", "sequential: in, kernel, out", sequential.time, 0, sequential.valid);
  row("async-v1", "async v1: " + std::to_string(chunks.size()) + " chunks, " + std::to_string(o.streams) + " streams",
      v1.time, 0, v1.valid);
  row("async-v2", "async v2: stage by stage", v2.time, 0, v2.valid);

  std::cout << o.mib << " MiB of uint32 each way, " << chunks.size() << " chunks over " << o.streams
            << " streams, median of " << o.timing.reps
            << " runs (host to device measured by cudaMemcpy: " << fixed(gb_per_s(bytes, h2d.median_ms), 1)
            << " GB/s pinned)\n\n";
  table.print(std::cout);

  for (const auto& schedule : {std::pair{"async v1", run_async_v1}, std::pair{"async v2", run_async_v2}}) {
    const auto run = schedule.second;
    Timeline timeline;
    Pipeline traced(in.data(), out.data(), dev_in.data(), dev_out.data(), iterations, &timeline);
    CUDA_CHECK(cudaDeviceSynchronize());
    timeline.start(main_stream);
    on_all_streams(main_stream, [&] { run(traced, chunks, streams); });
    std::cout << "\ntimeline of " << schedule.first << " (H copy in, K kernel, D copy out):\n";
    timeline.print(std::cout);
  }
  const double best = std::min(v1.time.median_ms, v2.time.median_ms);
  std::cout << "\nbest asynchronous: " << fixed(sequential.time.median_ms / best, 2) << "x faster than sequential, "
            << fixed(best / slowest, 2) << "x the slowest single stage\n";
  results.save(o.json);
  return valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 06: overlapping copies and kernels with streams"};
  Options o;
  o.timing.reps = 10;
  app.add_option("--mib", o.mib, "MiB each way")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 14))
      ->capture_default_str();
  app.add_option("--chunks", o.chunks, "chunks")
      ->check(CLI::Range(std::size_t{1}, std::size_t{4096}))
      ->capture_default_str();
  app.add_option("--streams", o.streams, "streams")
      ->check(CLI::Range(std::size_t{1}, std::size_t{64}))
      ->capture_default_str();
  app.add_option("--iterations", o.iterations, "generator steps per element (0: match the copy time)")
      ->check(CLI::Range(0, 1 << 20))
      ->capture_default_str();
  app.add_option("--reps", o.timing.reps, "timed repetitions")->check(CLI::Range(1, 100000))->capture_default_str();
  add_json_option(app, o.json);
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  return run_driver("06-streams", [&] { return experiment(o); });
}
