#include "matcher_choice.hpp"

#include <ostream>

#include "common/device_info.hpp"
#include "gpu_backend.hpp"
#include "pattern_source.hpp"

namespace cudamatch::cli {

namespace {
std::string algorithm_list() {
  std::string list;
  for (Algorithm a : all_algorithms()) list += (list.empty() ? "" : ", ") + std::string(algorithm_name(a));
  return list;
}

// Throws UsageError when there is no GPU to run on.
void require_gpu() {
  const DeviceAvailability devices = cuda_devices();
  if (devices.count == 0) throw UsageError("no CUDA device (" + devices.reason + "); use --backend cpu");
}
}  // namespace

AlgorithmSpec parse_algorithm_spec(const std::string& spec) {
  AlgorithmSpec result;
  if (spec.empty()) return result;
  const std::size_t colon = spec.find(':');
  const std::string name = spec.substr(0, colon);
  result.algorithm = parse_algorithm(name);
  if (!result.algorithm) throw UsageError("unknown algorithm '" + name + "' (choose from " + algorithm_list() + ")");
  if (colon != std::string::npos) {
    const std::string version = spec.substr(colon + 1);
    const bool well_formed = version.size() >= 2 && version[0] == 'v' &&
                             version.find_first_not_of("0123456789", 1) == std::string::npos && version.size() <= 4;
    if (!well_formed) throw UsageError("bad version '" + version + "' in '" + spec + "' (write it as v0, v1, ...)");
    result.version = std::stoi(version.substr(1));
  }
  return result;
}

Backend parse_backend(const std::string& name) {
  if (name == "cpu") return Backend::cpu;
  if (name == "cuda") return Backend::cuda;
  throw UsageError("unknown backend '" + name + "' (choose from cuda, cpu)");
}

void require_available(Backend backend, Algorithm algorithm, std::optional<int> version) {
  const std::string name = algorithm_name(algorithm);
  if (backend == Backend::cuda) {
    const GpuAlgorithm* gpu = gpu_algorithm(algorithm);
    if (gpu == nullptr) {
      throw UsageError("the CUDA backend of " + name +
                       " is not built yet (its lesson is still to come); use --backend cpu");
    }
    if (version && static_cast<std::size_t>(*version) >= gpu->versions.size()) {
      throw UsageError("the cuda backend has versions v0 to v" + std::to_string(gpu->versions.size() - 1) + " of " +
                       name + " (asked for v" + std::to_string(*version) + ")");
    }
    return;
  }
  if (version && *version != 0) {
    throw UsageError("the cpu backend has one version of " + name + ", v0 (asked for v" + std::to_string(*version) +
                     ")");
  }
}

void require_runnable(Backend backend, const AlgorithmSpec& spec) {
  if (spec.algorithm) require_available(backend, *spec.algorithm, spec.version);
  if (backend == Backend::cuda) require_gpu();
}

Backend default_backend(std::optional<Algorithm> algorithm, std::ostream& notes) {
  const DeviceAvailability devices = cuda_devices();
  if (devices.count == 0) {
    notes << "cudamatch: no CUDA device (" << devices.reason << "): searching on the CPU\n";
    return Backend::cpu;
  }
  if (algorithm && gpu_algorithm(*algorithm) == nullptr) return Backend::cpu;
  return Backend::cuda;
}

const GpuVersion& chosen_gpu_version(Algorithm algorithm, std::optional<int> version) {
  require_available(Backend::cuda, algorithm, version);
  require_gpu();
  const GpuAlgorithm& gpu = *gpu_algorithm(algorithm);
  return version ? gpu.version(*version) : gpu.best();
}

const GpuMultiVersion* chosen_multi_version() {
  const GpuMultiAlgorithm* table = gpu_multi_table();
  return table == nullptr ? nullptr : &table->best();
}

std::unique_ptr<CpuMatcher> make_matcher(Backend backend, Algorithm algorithm, std::optional<int> version,
                                         ByteView pattern) {
  if (backend == Backend::cuda) return make_gpu_matcher(chosen_gpu_version(algorithm, version), pattern);
  require_available(backend, algorithm, version);
  return make_cpu_matcher(algorithm, pattern);
}

}  // namespace cudamatch::cli
