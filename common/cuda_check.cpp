#include "common/cuda_check.hpp"

#include <cstdlib>
#include <cstring>

namespace cudamatch {

namespace {
std::string describe(cudaError_t code, const char* call, const char* file, int line) {
  return std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: " + cudaGetErrorName(code) + " (" +
         cudaGetErrorString(code) + ")";
}
}  // namespace

CudaError::CudaError(cudaError_t code, const char* call, const char* file, int line)
    : std::runtime_error(describe(code, call, file, line)), code_(code) {}

bool sync_after_launch() {
  static const bool enabled = [] {
    const char* value = std::getenv("CUDAMATCH_SYNC_LAUNCHES");
    return value != nullptr && std::strcmp(value, "0") != 0 && value[0] != '\0';
  }();
  return enabled;
}

}  // namespace cudamatch
