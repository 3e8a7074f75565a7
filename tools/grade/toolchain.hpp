// The programs the grader drives, found once: CMake, Ninja and nvcc (without them nothing can be
// graded), and the CUDA tools that some items need (without them those items do not run).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace cudamatch::grade {

// `name` on the PATH, else in the first of `extra_dirs` that has it.
std::optional<std::filesystem::path> find_program(const std::string& name,
                                                  const std::vector<std::filesystem::path>& extra_dirs = {});

struct Toolchain {
  std::filesystem::path cmake;
  std::filesystem::path ninja;
  std::filesystem::path nvcc;
  std::optional<std::filesystem::path> ncu;
  std::optional<std::filesystem::path> cuobjdump;
  std::optional<std::filesystem::path> compute_sanitizer;
};

// Throws std::runtime_error naming what is missing when CMake, Ninja or nvcc cannot be found. nvcc:
// $CUDACXX, the PATH, then /usr/local/cuda/bin; the CUDA tools: the PATH, then nvcc's folder.
Toolchain find_toolchain();

struct GpuProbe {
  bool present = false;
  std::string description;  // the GPU's name, or why there is none
};

// Asks nvidia-smi; a missing or failing nvidia-smi means no GPU.
GpuProbe probe_gpu();

}  // namespace cudamatch::grade
