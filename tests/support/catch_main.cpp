// The Catch2 main of every cudamatch test program.
//
// Test cases tagged [gpu] need a CUDA device. Without one:
//   - when every selected test case is a GPU test (CTest runs one test case per process), the program
//     prints why and exits with status 77, which CTest reports as "skipped", never as passed or failed;
//   - when host and GPU tests are selected together (running the program by hand), the GPU tests are
//     left out, the host tests run, and a note says how many were skipped and why.
// Set CUDAMATCH_REQUIRE_GPU=1 to make a missing device an error instead (the grader, GPU CI).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <string>

#include "common/catch_test_spec.hpp"
#include "common/device_info.hpp"

namespace {

constexpr int kSkipReturnCode = 77;

bool is_gpu_test(const Catch::TestCase& test) {
  const auto& tags = test.getTestCaseInfo().lcaseTags;
  return std::find(tags.begin(), tags.end(), "gpu") != tags.end();
}

// CTest discovery (catch_discover_tests) reads test names into CMake lists: a ';' splits a name and
// '[' or ']' glue two tests into one. Refuse such names when listing, so the build says so.
bool names_are_ctest_safe(const Catch::Config& config) {
  bool safe = true;
  for (const auto& test : Catch::getAllTestCasesSorted(config)) {
    if (test.name.find_first_of(";[]") != std::string::npos) {
      std::cerr << "error: test name \"" << test.name << "\" contains ';', '[' or ']', which CTest cannot take\n";
      safe = false;
    }
  }
  return safe;
}

bool gpu_required_by_environment() {
  const char* value = std::getenv("CUDAMATCH_REQUIRE_GPU");
  return value != nullptr && value[0] != '\0' && std::string(value) != "0";
}

}  // namespace

int main(int argc, char* argv[]) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
  Catch::ConfigData data = session.configData();
  if (data.listTestNamesOnly && !names_are_ctest_safe(session.config())) return 1;
  if (data.showHelp || data.listTests || data.listTestNamesOnly || data.listTags || data.listReporters) {
    return session.run();
  }

  const cudamatch::DeviceAvailability devices = cudamatch::cuda_devices();
  if (devices.count > 0) return session.run();
  const std::string reason = "no CUDA device: " + devices.reason;
  if (gpu_required_by_environment()) {
    std::cerr << "error: " << reason << " (CUDAMATCH_REQUIRE_GPU is set)\n";
    return 1;
  }

  const Catch::Config& config = session.config();
  const auto selected = Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config);
  std::vector<std::string> host_tests;
  for (const auto& test : selected) {
    if (!is_gpu_test(test)) host_tests.push_back(test.name);
  }
  const std::size_t gpu_tests = selected.size() - host_tests.size();
  if (gpu_tests == 0) return session.run();
  if (host_tests.empty()) {
    std::cout << "SKIPPED: " << reason << '\n';
    return kSkipReturnCode;
  }
  // One spec, the names joined by ',' (OR): separate entries would be ANDed into one filter.
  std::string spec;
  for (const auto& name : host_tests) spec += (spec.empty() ? "" : ",") + cudamatch::exact_test_spec(name);
  data.testsOrTags = {spec};
  session.useConfigData(data);
  const int rc = session.run();
  std::cout << "note: skipped " << gpu_tests << " GPU test case(s): " << reason << '\n';
  return rc;
}
