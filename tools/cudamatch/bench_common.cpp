#include "bench_common.hpp"

#include <chrono>
#include <fstream>

#include "common/ceilings.hpp"
#include "common/device_info.hpp"
#include "common/table.hpp"
#include "pattern_source.hpp"

namespace cudamatch::cli {

std::string cpu_model_name() {
  std::ifstream info("/proc/cpuinfo");
  for (std::string line; std::getline(info, line);) {
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  }
  return "unknown CPU";
}

double now_ms() {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

void choose_default_backends(BenchOptions& o, std::ostream& notes) {
  const DeviceAvailability devices = cuda_devices();
  if (devices.count == 0) {
    notes << "cudamatch: no CUDA device (" << devices.reason << "): benchmarking on the CPU only\n";
    o.backends = {"cpu"};
  } else {
    o.backends = {"cuda", "cpu"};
    o.batch = true;
  }
}

void require_gpu_for_bench() {
  const DeviceAvailability devices = cuda_devices();
  if (devices.count == 0) throw UsageError("no CUDA device (" + devices.reason + "); use --backend cpu");
}

std::vector<Corpus> load_bench_corpora(const BenchOptions& o, std::ostream& notes) {
  std::vector<std::string> names = o.corpora;
  if (names.empty()) {
    for (const CorpusSpec& spec : corpus_specs()) names.push_back(spec.name);
  }
  std::vector<Corpus> corpora;
  for (const std::string& name : names) {
    corpora.push_back(load_corpus(name, o.data_dir.empty() ? default_data_dir() : o.data_dir, &notes));
  }
  return corpora;
}

GpuReadCeiling measure_gpu_read(std::ostream& report) {
  const DeviceInfo info = query_device();
  const Ceilings ceilings = measure_ceilings(info);
  report << "GPU: " << info.name << "; device read bandwidth measured now: " << fixed(ceilings.device_read_gbps, 0)
         << " GB/s (theoretical " << fixed(ceilings.theoretical_gbps, 0) << ")" << std::endl;
  return {info.name, ceilings.device_read_gbps};
}

}  // namespace cudamatch::cli
