#include "toolchain.hpp"

#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "process.hpp"
#include "text.hpp"

namespace cudamatch::grade {

namespace fs = std::filesystem;

namespace {

bool is_executable(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error) && access(path.c_str(), X_OK) == 0;
}

}  // namespace

std::optional<fs::path> find_program(const std::string& name, const std::vector<fs::path>& extra_dirs) {
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    for (std::string dir; std::getline(dirs, dir, ':');) {
      if (!dir.empty() && is_executable(fs::path(dir) / name)) return fs::path(dir) / name;
    }
  }
  for (const auto& dir : extra_dirs) {
    if (is_executable(dir / name)) return dir / name;
  }
  return std::nullopt;
}

Toolchain find_toolchain() {
  Toolchain tools;
  const auto cmake = find_program("cmake");
  if (!cmake) throw std::runtime_error("cmake not found on the PATH");
  const auto ninja = find_program("ninja");
  if (!ninja) throw std::runtime_error("ninja not found on the PATH (Debian: ninja-build)");
  std::optional<fs::path> nvcc;
  if (const char* cudacxx = std::getenv("CUDACXX"); cudacxx != nullptr && is_executable(cudacxx))
    nvcc = fs::path(cudacxx);
  if (!nvcc) nvcc = find_program("nvcc", {"/usr/local/cuda/bin"});
  if (!nvcc)
    throw std::runtime_error("nvcc not found ($CUDACXX, the PATH, /usr/local/cuda/bin): install the CUDA Toolkit");
  tools.cmake = *cmake;
  tools.ninja = *ninja;
  tools.nvcc = *nvcc;
  const fs::path cuda_bin = nvcc->parent_path();
  tools.ncu = find_program("ncu", {cuda_bin});
  tools.cuobjdump = find_program("cuobjdump", {cuda_bin});
  tools.compute_sanitizer = find_program("compute-sanitizer", {cuda_bin, cuda_bin.parent_path() / "compute-sanitizer"});
  return tools;
}

GpuProbe probe_gpu() {
  const auto nvidia_smi = find_program("nvidia-smi");
  if (!nvidia_smi) return GpuProbe{false, "nvidia-smi not found"};
  ProcessSpec spec;
  spec.argv = {nvidia_smi->string(), "-L"};
  spec.timeout_s = 60;
  const ProcessResult result = run_process(spec);
  const std::string output = trim(result.output);
  if (!result.exited_with(0) || output.rfind("GPU ", 0) != 0) {
    return GpuProbe{false,
                    "nvidia-smi " + result.describe() + (output.empty() ? "" : ": " + last_lines(output, 1, 200))};
  }
  return GpuProbe{true, output.substr(0, output.find('\n'))};
}

}  // namespace cudamatch::grade
