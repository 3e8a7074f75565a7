// What the two experiments of `cudamatch bench` share: their options, and the steps both take before they
// measure (the backends, the corpora, the GPU's read bandwidth). bench.cpp measures single-pattern
// search over pattern lengths, bench_multi.cpp (--multi) multi-pattern search over pattern counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "common/corpus.hpp"

namespace cudamatch::cli {

struct BenchOptions {
  std::vector<std::string> corpora;
  // Up to 4096: issue 20's range, where no algorithm's best version may have a hole (2048 and 4096 add a
  // fifth of the rows; the slowest, KMP v0 and v1, whose chunks grow with m).
  std::vector<std::size_t> lengths = {2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096};
  std::vector<std::string> algorithms;
  std::vector<std::string> peers;  // empty: every peer built in
  bool no_peers = false;
  std::size_t patterns = 20;
  std::vector<std::string> backends;  // empty: cuda,cpu with batch when there is a GPU, else cpu
  std::size_t mib = 0;                // 0: the default size (bench: the corpora as they are)
  bool batch = false;
  bool graph = false;
  bool multi = false;                                                   // --multi: bench_multi.cpp
  std::vector<std::size_t> set_sizes = {10, 100, 1000, 10000, 100000};  // --multi: patterns per set
  double skip_above_s = 2.0;  // --multi: a row whose count takes longer is not run for larger sets (0: never)
  std::string data_dir;
  std::string out;   // the results folder; empty: BenchOutputs' default
  std::string csv;   // empty: in the results folder
  std::string plot;  // empty: in the results folder
  std::uint64_t seed = 2024;
};

// `cudamatch bench --multi`.
int run_bench_multi(BenchOptions o);

// The host's processor, from /proc/cpuinfo.
std::string cpu_model_name();

// A steady clock in milliseconds.
double now_ms();

// The run with no --backend: the GPU beside the CPU, batched searches too, when there is a GPU; else the
// CPU alone, which `notes` is told.
void choose_default_backends(BenchOptions& o, std::ostream& notes);

// Throws UsageError when there is no GPU.
void require_gpu_for_bench();

// The corpora --corpora names (default: every one), stand-ins said on `notes`.
std::vector<Corpus> load_bench_corpora(const BenchOptions& o, std::ostream& notes);

// The GPU's name and its device read bandwidth, measured now, which `report` is told in one line.
struct GpuReadCeiling {
  std::string name;
  double read_gbps = 0.0;
};
GpuReadCeiling measure_gpu_read(std::ostream& report);

}  // namespace cudamatch::cli
