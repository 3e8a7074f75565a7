// Lesson 09 - unified memory: the experiment. One byte count over a text the host has just written,
// end to end (from the text written on the host to the count back on the host: the copy or the
// migration, advice and prefetch calls, the kernel and the read-back of the count), fed by an explicit
// copy from pinned memory, by managed memory the GPU faults in page by page, and by managed memory
// prefetched with advice; then a managed text larger than a memory budget (oversubscription). Every
// timed run starts from the text on the host, a few of its bytes changed, and every count is checked.
// With --counters, nothing is timed: one run of each version with the CUDA driver's unified-memory
// counters (CUPTI, enabled before the CUDA context exists): bytes migrated each way and page faults.
//
//   ./build/default/bin/09-unified-memory [--mib M] [--oversub-mib M] [--budget-mib M] [--chunk-mib M]
//                                         [--reps N] [--json FILE] [--counters]
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/wait.h>

#include "common/bandwidth.hpp"
#include "common/buffers.hpp"
#include "common/ceilings.hpp"
#include "common/cli_parse.hpp"
#include "common/device_info.hpp"
#include "common/driver.hpp"
#include "common/random.hpp"
#include "common/report.hpp"
#include "common/results_json.hpp"
#include "um_counters.hpp"
#include "unified.hpp"

using namespace cudamatch;

namespace {

constexpr unsigned char kByte = 'a';

struct Options {
  std::size_t mib = 1024;
  std::size_t oversub_mib = 2048;
  std::size_t budget_mib = 1024;
  std::size_t chunk_mib = 0;  // 0: a quarter of the budget
  int reps = 5;
  bool counters = false;
  std::string count_one;  // "resident/ID" or "oversubscribed/ID": the child process of --counters
  bool bytes_only = false;
  std::string json;
};

// A text the host writes: random bytes, and the count the GPU must find. mutate() changes a few bytes,
// as a host program that produces new data would, so that no run can reuse an earlier run's count.
class HostText {
 public:
  HostText(unsigned char* data, std::size_t n, std::uint64_t seed) : data_(data), n_(n), rng_(seed) {
    for (std::size_t i = 0; i < n; i += 8) {
      const std::uint64_t w = rng_.next();
      std::memcpy(data + i, &w, std::min<std::size_t>(8, n - i));
    }
    expected_ = count_on_cpu(data, n, kByte);
  }
  void mutate() {
    for (int k = 0; k < 8; ++k) {
      const std::size_t i = rng_.below(n_);
      const auto b = static_cast<unsigned char>(rng_.below(4) == 0 ? kByte : rng_.below(256));
      expected_ += (b == kByte) - (data_[i] == kByte);
      data_[i] = b;
    }
  }
  std::uint64_t expected() const { return expected_; }

 private:
  unsigned char* data_;
  std::size_t n_;
  Rng rng_;
  std::uint64_t expected_ = 0;
};

struct Measured {
  TimingStats time;
  bool valid = false;
};

// What a timed run starts from: the text back on the host (managed), changed a little (fresh), or as
// the last run left it (reused).
enum class Start { kPinned, kManagedOnHost, kReused };

class Bench {
 public:
  Bench(int device, cudaStream_t stream) : device_(device), stream_(stream), dev_count_(1), host_count_(1) {}

  unsigned long long* dev_count() const { return dev_count_.data(); }
  unsigned long long* host_count() const { return host_count_.data(); }

  // Puts the text where `start` says, changes it unless reused, poisons the count. Untimed.
  void reset(Start start, HostText& text, unsigned char* data, std::size_t n) {
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    if (start == Start::kManagedOnHost) return_to_host(data, n, device_, stream_);
    if (start != Start::kReused) text.mutate();
    host_count_[0] = ~0ull;
  }

  // Runs `run` once and checks it, times it (each run from `start`, each count checked), checks the last.
  Measured measure(const char* name, Start start, HostText& text, unsigned char* data, std::size_t n, int reps,
                   const std::function<void(cudaStream_t)>& run, const std::function<void()>& poison = {}) {
    std::size_t wrong = 0;
    const auto check = [&] {
      if (host_count_[0] != text.expected()) ++wrong;
    };
    reset(start, text, data, n);
    if (poison) poison();
    run(stream_);
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    check();
    bool pending = false;
    TimingOptions timing;
    timing.warmup = 1;
    timing.warmup_min_ms = 0.0;
    timing.reps = reps;
    timing.before_each = [&](cudaStream_t) {
      CUDA_CHECK(cudaStreamSynchronize(stream_));
      if (pending) check();
      reset(start, text, data, n);
      if (poison) poison();
      pending = true;
    };
    Measured m;
    m.time = time_on_gpu(run, timing, stream_);
    CUDA_CHECK(cudaStreamSynchronize(stream_));
    check();
    if (wrong != 0) std::cerr << name << ": " << wrong << " wrong counts\n";
    m.valid = wrong == 0;
    return m;
  }

 private:
  int device_;
  cudaStream_t stream_;
  DeviceBuffer<unsigned long long> dev_count_;
  PinnedBuffer<unsigned long long> host_count_;
};

// Device memory taken so that only about `budget` bytes stay free: how a managed working set larger
// than the GPU's memory is simulated with a few GiB on a GPU of 80.
class Filler {
 public:
  explicit Filler(std::size_t budget) {
    std::size_t free_bytes = 0, total = 0;
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    if (free_bytes > budget) buffer_ = DeviceBuffer<unsigned char>((free_bytes - budget) & ~std::size_t{0x1FFFFF});
    CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total));
    free_ = free_bytes;
  }
  std::size_t filled() const { return buffer_.bytes(); }
  std::size_t free_after() const { return free_; }

 private:
  DeviceBuffer<unsigned char> buffer_;
  std::size_t free_ = 0;
};

std::string mb(std::uint64_t bytes) { return fixed(static_cast<double>(bytes) / 1e6, 1); }

struct Row {
  std::string id, label;
  Measured m;
};

// --counters runs each counted version in a process of its own: this program again with --count-one,
// which enables CUPTI before its CUDA context and prints one line. A CUDA error in one run (an illegal
// address was seen with the counters on) then ends that process only, and each run starts from a fresh
// context with nothing migrated yet.
constexpr const char* kResident = "resident";
constexpr const char* kOversubscribed = "oversubscribed";
constexpr const char* kCountsLine = "um-counts";            // right htod dtoh gpu_fault_groups cpu_faults thrashing
constexpr const char* kUnavailableLine = "um-unavailable";  // the reason
constexpr const char* kSkippedLine = "um-skipped";          // the reason
struct CountedRun {
  const char* kind;
  const char* id;  // the row ids of the timed tables
};
constexpr CountedRun kCountedRuns[] = {{kResident, "explicit-copy"},
                                       {kResident, "managed-first-touch"},
                                       {kResident, "managed-prefetch"},
                                       {kResident, "managed-reused"},
                                       {kOversubscribed, "managed-first-touch"},
                                       {kOversubscribed, "managed-prefetch"},
                                       {kOversubscribed, "managed-chunked"}};

struct ChildResult {
  std::string tag;     // kCountsLine, kUnavailableLine, kSkippedLine, or empty: the run failed
  std::string fields;  // what follows the tag, or the run's last line of output when it failed
};

// Runs this program with `args`, its stderr merged into its stdout, and finds the line it answered.
ChildResult run_child(const std::string& args) {
  std::error_code error;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", error).string();
  if (error) return {"", "cannot find this program (/proc/self/exe): " + error.message()};
  const std::string command = "'" + self + "' " + args + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return {"", "cannot start " + self};
  ChildResult result;
  std::string last, line;
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) {
    line += buffer;
    if (line.empty() || line.back() != '\n') continue;
    line.pop_back();
    for (const char* tag : {kCountsLine, kUnavailableLine, kSkippedLine}) {
      if (line.rfind(std::string(tag) + " ", 0) == 0) result = {tag, line.substr(std::strlen(tag) + 1)};
    }
    if (!line.empty()) last = line;
    line.clear();
  }
  const int status = pclose(pipe);
  const bool failed = status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0;
  if (failed && result.tag == kCountsLine) result.tag.clear();  // counted, then failed: not trusted
  if (result.tag.empty() && last.empty()) {
    result.fields = status == -1          ? "cannot wait for " + self
                    : WIFSIGNALED(status) ? "killed by signal " + std::to_string(WTERMSIG(status))
                                          : "exit status " + std::to_string(WEXITSTATUS(status));
  } else if (result.tag.empty()) {
    result.fields = last;
  }
  return result;
}

// The parent of --counters: device queries only, no CUDA context of its own; one child per counted
// run, a table per case.
// A run that fails is tried once more with the byte counters alone (the fault counters are the ones a
// driver is most likely to mishandle); rows say which. Returns 1 when a run failed or counted wrong.
int count_in_children(const Options& o) {
  std::cout << query_device().name
            << ": unified-memory counters of the CUDA driver (CUPTI), one untimed run of each version from\n"
               "the text on the host, each in a process of its own: MB migrated each way, GPU page-fault\n"
               "groups, CPU page faults, thrashing\n\n";
  const std::string sizes = "--mib " + std::to_string(o.mib) + " --oversub-mib " + std::to_string(o.oversub_mib) +
                            " --budget-mib " + std::to_string(o.budget_mib) + " --chunk-mib " +
                            std::to_string(o.chunk_mib);
  int status = 0;
  for (const char* kind : {kResident, kOversubscribed}) {
    Table table({"case", "version", "HtoD MB", "DtoH MB", "GPU fault groups", "CPU faults", "thrashing"});
    const std::string case_label = std::string(kind) == kResident ? std::to_string(o.mib) + " MiB"
                                                                  : std::to_string(o.oversub_mib) + " MiB over " +
                                                                        std::to_string(o.budget_mib) + " MiB";
    for (const CountedRun& run : kCountedRuns) {
      if (std::string(run.kind) != kind || (std::string(kind) == kOversubscribed && o.oversub_mib == 0)) continue;
      const std::string which = std::string("--count-one ") + run.kind + "/" + run.id;
      std::cout.flush();
      ChildResult r = run_child(which + " " + sizes);
      bool bytes_only = false;
      if (r.tag.empty()) {
        std::cout << run.kind << "/" << run.id << " failed: " << r.fields << "\n";
        r = run_child(which + " --count-bytes-only " + sizes);
        bytes_only = true;
      }
      if (r.tag == kUnavailableLine) {  // CUPTI refused: no later run will count either
        if (bytes_only) table.print(std::cout);
        std::cout << "  unavailable: " << r.fields << "\n";
        return bytes_only ? 1 : status;
      }
      if (r.tag == kSkippedLine) continue;
      if (r.tag.empty()) {
        std::cout << run.kind << "/" << run.id << " failed again with the byte counters alone: " << r.fields << "\n";
        table.add_row({case_label, std::string(run.id) + " (FAILED)", "", "", "", "", ""});
        status = 1;
        continue;
      }
      std::istringstream fields(r.fields);
      int right = 0;
      UmCounts c;
      fields >> right >> c.htod_bytes >> c.dtoh_bytes >> c.gpu_fault_groups >> c.cpu_faults >> c.thrashing;
      if (right != 1) status = 1;
      const auto count = [&](std::uint64_t value) { return bytes_only ? std::string("-") : std::to_string(value); };
      table.add_row(
          {case_label, std::string(run.id) + (right == 1 ? "" : " (WRONG COUNT)") + (bytes_only ? " (bytes only)" : ""),
           mb(c.htod_bytes), mb(c.dtoh_bytes), count(c.gpu_fault_groups), count(c.cpu_faults), count(c.thrashing)});
    }
    table.print(std::cout);
    std::cout << '\n';
  }
  return status;
}

// Prints a case's table and adds its rows to the results: GB/s of text, that as a share of the pinned
// host-to-device copy measured in the same run, and the speed against the row `baseline`.
void report(DriverResults& results, const ResultCase& input, const std::vector<Row>& rows, std::size_t n,
            double h2d_gbps, const std::string& baseline, const std::string& baseline_name) {
  const auto base = std::find_if(rows.begin(), rows.end(), [&](const Row& r) { return r.id == baseline; });
  Table table({"version", "median ms", "GB/s", "% of pinned H2D", "vs " + baseline_name});
  for (const Row& r : rows) {
    const double gbps = gb_per_s(n, r.m.time.median_ms);
    table.add_row({r.label, fixed(r.m.time.median_ms, 3), fixed(gbps, 1), fixed(percent_of(gbps, h2d_gbps), 1),
                   base == rows.end() ? "" : fixed(base->m.time.median_ms / r.m.time.median_ms, 2) + "x"});
    results.add({input, r.id, r.label, r.m.time.median_ms, gbps, r.m.valid});
  }
  std::cout << input.label << ", end to end, median of the timed runs:\n\n";
  table.print(std::cout);
  std::cout << '\n';
}

// Times every version, or, with `counters`, runs each once with the unified-memory counters on.
int experiment(const Options& o, UmCounters* counters) {
  const bool timed = counters == nullptr;
  const RunContext context = timed ? measure_run_context(std::cout) : RunContext{query_device(), {}};
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  const bool concurrent = concurrent_managed_access(device);
  if (!concurrent) {
    std::cout << "This GPU reports concurrentManagedAccess = 0 (Windows, WSL, or a GPU before Pascal): the driver\n"
                 "moves every managed allocation to the GPU at each launch and back at each synchronize, prefetch\n"
                 "and advice are not supported, and managed memory cannot exceed the GPU's. Only the explicit copy\n"
                 "and the plain managed version are measured.\n\n";
  }
  CudaStream stream_owner, prefetch_owner;
  const cudaStream_t stream = stream_owner.get(), prefetch_stream = prefetch_owner.get();
  Bench bench(device, stream);
  DriverResults results("09-unified-memory", context.device, context.ceilings);
  bool valid = true;

  // --- the text fits in the GPU's memory ---
  const std::size_t n = o.mib * kMiB;
  const double h2d_gbps = timed ? measure_host_to_device_gbps(n) : 0.0;
  results.add_ceiling("h2d_pinned", h2d_gbps);
  if (timed)
    std::cout << "pinned host-to-device cudaMemcpy of " << o.mib << " MiB: " << fixed(h2d_gbps, 1)
              << " GB/s (the link's ceiling for every version)\n\n";
  PinnedBuffer<unsigned char> pinned(n);
  DeviceBuffer<unsigned char> dev_text(n);
  ManagedBuffer<unsigned char> managed(n);
  HostText pinned_text(pinned.data(), n, 9001), managed_text(managed.data(), n, 9002);
  const auto poison_device_text = [&] { CUDA_CHECK(cudaMemsetAsync(dev_text.data(), 0xFF, n, stream)); };
  const auto with_copy = [&](cudaStream_t s) {
    count_with_copy(pinned.data(), dev_text.data(), n, kByte, bench.dev_count(), bench.host_count(), s);
  };
  const auto first_touch = [&](unsigned char* text, std::size_t bytes) {
    return [&, text, bytes](cudaStream_t s) {
      count_managed(text, bytes, kByte, bench.dev_count(), bench.host_count(), s);
    };
  };
  const auto prefetched = [&](unsigned char* text, std::size_t bytes) {
    return [&, text, bytes](cudaStream_t s) {
      prepare_for_gpu(text, bytes, device, s);
      count_managed(text, bytes, kByte, bench.dev_count(), bench.host_count(), s);
    };
  };
  const auto chunked = [&](unsigned char* text, std::size_t bytes, std::size_t chunk) {
    return [&, text, bytes, chunk](cudaStream_t s) {
      CUDA_CHECK(cudaMemsetAsync(bench.dev_count(), 0, sizeof(unsigned long long), s));
      CudaEvent fork, join;
      fork.record(s);
      CUDA_CHECK(cudaStreamWaitEvent(prefetch_stream, fork.get()));
      count_in_chunks(text, bytes, kByte, chunk, device, bench.dev_count(), s, prefetch_stream);
      join.record(prefetch_stream);
      CUDA_CHECK(cudaStreamWaitEvent(s, join.get()));
      CUDA_CHECK(cudaMemcpyAsync(bench.host_count(), bench.dev_count(), sizeof(unsigned long long),
                                 cudaMemcpyDeviceToHost, s));
    };
  };

  std::vector<Row> resident;
  if (timed) {
    resident.push_back({"explicit-copy", "explicit copy: pinned cudaMemcpy, kernel",
                        bench.measure("explicit copy", Start::kPinned, pinned_text, pinned.data(), n, o.reps, with_copy,
                                      poison_device_text)});
    resident.push_back(
        {"kernel", "kernel alone, text in device memory",
         bench.measure("kernel", Start::kReused, pinned_text, pinned.data(), n, o.reps, [&](cudaStream_t s) {
           count_managed(dev_text.data(), n, kByte, bench.dev_count(), bench.host_count(), s);
         })});
    resident.push_back({"managed-first-touch", "managed, GPU page faults",
                        bench.measure("managed, first touch", Start::kManagedOnHost, managed_text, managed.data(), n,
                                      o.reps, first_touch(managed.data(), n))});
    if (concurrent) {
      resident.push_back({"managed-prefetch", "managed, read-mostly + prefetch",
                          bench.measure("managed, prefetched", Start::kManagedOnHost, managed_text, managed.data(), n,
                                        o.reps, prefetched(managed.data(), n))});
      resident.push_back({"managed-reused", "managed, second kernel on the same pages",
                          bench.measure("managed, reused", Start::kReused, managed_text, managed.data(), n, o.reps,
                                        first_touch(managed.data(), n))});
    }
  }
  for (const Row& r : resident) valid = valid && r.m.valid;
  const ResultCase resident_case{std::to_string(o.mib) + "mib", std::to_string(o.mib) + " MiB"};
  if (timed) report(results, resident_case, resident, n, h2d_gbps, "explicit-copy", "explicit copy");

  // --- oversubscription: a managed text larger than the memory left free ---
  const std::size_t big = o.oversub_mib * kMiB, budget = o.budget_mib * kMiB;
  const std::size_t chunk = (o.chunk_mib != 0 ? o.chunk_mib * kMiB : budget / 4);
  std::optional<ManagedBuffer<unsigned char>> oversub;
  std::optional<HostText> oversub_text;
  const ResultCase oversub_case{
      "oversubscribed-" + std::to_string(o.oversub_mib) + "mib",
      std::to_string(o.oversub_mib) + " MiB over a " + std::to_string(o.budget_mib) + " MiB budget"};
  const auto oversubscribed_runs = [&] {
    return std::vector<std::pair<Row, std::function<void(cudaStream_t)>>>{
        {{"managed-first-touch", "managed, GPU page faults", {}}, first_touch(oversub->data(), big)},
        {{"managed-prefetch", "managed, read-mostly + prefetch of it all", {}}, prefetched(oversub->data(), big)},
        {{"managed-chunked", "managed, prefetched chunk by chunk", {}}, chunked(oversub->data(), big, chunk)}};
  };
  const bool counts_oversubscribed = o.count_one.rfind(std::string(kOversubscribed) + "/", 0) == 0;
  if (concurrent && big > 0 && (timed || counts_oversubscribed)) {
    return_to_host(managed.data(), n, device, stream);  // the resident case's pages leave the GPU
    oversub.emplace(big);
    oversub_text.emplace(oversub->data(), big, 9003);
  }
  if (timed && concurrent && big > 0) {
    const Filler filler(budget);
    if (filler.free_after() >= big) {
      throw std::runtime_error("the oversubscribed text of " + std::to_string(o.oversub_mib) + " MiB fits the " +
                               std::to_string(filler.free_after() / kMiB) +
                               " MiB left free: it would not be oversubscribed (raise --oversub-mib)");
    }
    std::cout << "oversubscription: a filler cudaMalloc of " << filler.filled() / kMiB << " MiB leaves "
              << filler.free_after() / kMiB << " MiB of device memory free for a managed text of " << o.oversub_mib
              << " MiB; count_in_chunks prefetches " << chunk / kMiB << " MiB chunks\n";
    std::vector<Row> rows;
    for (auto& [row, run] : oversubscribed_runs()) {
      row.m = bench.measure(row.label.c_str(), Start::kManagedOnHost, *oversub_text, oversub->data(), big,
                            std::max(1, o.reps / 2), run);
      valid = valid && row.m.valid;
      rows.push_back(row);
    }
    report(results, oversub_case, rows, big, h2d_gbps, "managed-first-touch", "first touch");
  }

  if (timed && concurrent) {
    const auto time_of = [&](const std::string& id) {
      const auto r = std::find_if(resident.begin(), resident.end(), [&](const Row& row) { return row.id == id; });
      return r == resident.end() ? 0.0 : r->m.time.median_ms;
    };
    std::cout << "prefetched managed memory runs at "
              << fixed(time_of("explicit-copy") / time_of("managed-prefetch"), 2)
              << "x the explicit copy's speed (target 0.8x); first touch at "
              << fixed(time_of("explicit-copy") / time_of("managed-first-touch"), 2) << "x\n\n";
  }
  if (timed) results.save(o.json);

  // --- what moved: this process's one run (o.count_one) with the driver's unified-memory counters ---
  if (!timed) {
    if (!counters->available()) {
      std::cout << kUnavailableLine << ' ' << counters->reason() << '\n';
      return 0;
    }
    bool counted = false;
    const auto count_run = [&](const char* kind, const std::string& id, Start start, HostText& text,
                               unsigned char* data, std::size_t bytes, const std::function<void(cudaStream_t)>& run) {
      if (o.count_one != std::string(kind) + "/" + id) return;
      counted = true;
      if (start == Start::kReused) {  // the pages on the GPU first, as the prefetched version leaves them
        bench.reset(Start::kManagedOnHost, text, data, bytes);
        prefetched(data, bytes)(stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
      }
      bench.reset(start, text, data, bytes);
      const UmCounts c = counters->measure([&] {
        run(stream);
        CUDA_CHECK(cudaStreamSynchronize(stream));
      });
      const bool right = bench.host_count()[0] == text.expected();
      std::cout << kCountsLine << ' ' << (right ? 1 : 0) << ' ' << c.htod_bytes << ' ' << c.dtoh_bytes << ' '
                << c.gpu_fault_groups << ' ' << c.cpu_faults << ' ' << c.thrashing << '\n';
    };
    count_run(kResident, "explicit-copy", Start::kPinned, pinned_text, pinned.data(), n, with_copy);
    count_run(kResident, "managed-first-touch", Start::kManagedOnHost, managed_text, managed.data(), n,
              first_touch(managed.data(), n));
    if (concurrent) {
      count_run(kResident, "managed-prefetch", Start::kManagedOnHost, managed_text, managed.data(), n,
                prefetched(managed.data(), n));
      count_run(kResident, "managed-reused", Start::kReused, managed_text, managed.data(), n,
                first_touch(managed.data(), n));
    }
    if (concurrent && big > 0 && counts_oversubscribed) {
      const Filler filler(budget);
      for (auto& [row, run] : oversubscribed_runs()) {
        count_run(kOversubscribed, row.id, Start::kManagedOnHost, *oversub_text, oversub->data(), big, run);
      }
    }
    if (!counted && concurrent) throw std::runtime_error("--count-one " + o.count_one + ": no such run");
    if (!counted) std::cout << kSkippedLine << " concurrentManagedAccess = 0\n";
    return 0;  // the line says whether the count was right
  }

  return valid ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Lesson 09: unified memory against explicit copies"};
  Options o;
  app.add_option("--mib", o.mib, "the text that fits, MiB")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 14))
      ->capture_default_str();
  app.add_option("--oversub-mib", o.oversub_mib, "the text larger than the budget, MiB (0: none)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 14))
      ->capture_default_str();
  app.add_option("--budget-mib", o.budget_mib, "device memory left free for the oversubscribed text, MiB")
      ->check(CLI::Range(std::size_t{64}, std::size_t{1} << 14))
      ->capture_default_str();
  app.add_option("--chunk-mib", o.chunk_mib, "count_in_chunks' chunk, MiB (0: a quarter of the budget)")
      ->check(CLI::Range(std::size_t{0}, std::size_t{1} << 14))
      ->capture_default_str();
  app.add_option("--reps", o.reps, "timed repetitions")->check(CLI::Range(1, 1000))->capture_default_str();
  app.add_flag("--counters", o.counters,
               "time nothing: run each version once with the driver's unified-memory counters (CUPTI) and print them");
  // The child processes of --counters: hidden from --help.
  app.add_option("--count-one", o.count_one)->group("");
  app.add_flag("--count-bytes-only", o.bytes_only)->group("");
  add_json_option(app, o.json);
  // An oversubscribed case that fits its budget, or chunks larger than the budget, would measure
  // something else under the same name: refused as usage errors.
  app.callback([&o] {
    if (o.oversub_mib != 0 && o.oversub_mib <= o.budget_mib) {
      throw CLI::ValidationError("--oversub-mib", "must exceed --budget-mib (" + std::to_string(o.budget_mib) +
                                                      "): the text must not fit the memory left free");
    }
    if (o.chunk_mib > o.budget_mib) {
      throw CLI::ValidationError("--chunk-mib", "must not exceed --budget-mib (" + std::to_string(o.budget_mib) + ")");
    }
  });
  if (const int status = parse_command_line(app, argc, argv); status >= 0) return status;
  if (o.counters && o.count_one.empty()) return run_driver("09-unified-memory", [&] { return count_in_children(o); });
  // The counters see only the managed memory of contexts created after CUPTI enabled them: before any
  // CUDA call.
  std::optional<UmCounters> counters;
  if (!o.count_one.empty()) counters.emplace(o.bytes_only ? UmCounterSet::bytes : UmCounterSet::all);
  return run_driver("09-unified-memory", [&] { return experiment(o, counters ? &*counters : nullptr); });
}
