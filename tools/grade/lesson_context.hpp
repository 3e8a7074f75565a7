// What grading one lesson needs: its rubric, where its programs are, the settings from the command
// line, the state of the machine (GPU, tools), and the runs that items share (a test case, a driver
// invocation or an ncu measurement runs once per lesson however many items use it).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catch_tests.hpp"
#include "driver_results.hpp"
#include "ncu_report.hpp"
#include "rubric.hpp"
#include "toolchain.hpp"

namespace cudamatch::grade {

struct GradeSettings {
  double timeout_s = 300.0;   // per test case; drivers, ncu and sanitizer runs get 4x
  std::size_t test_jobs = 1;  // test processes (test cases, sanitizer tools) at a time; drivers and ncu run alone
  bool sanitize = false;
  bool ncu = false;
  std::optional<std::filesystem::path> reference_bin;  // <--reference-build>/bin
};

// The machine, shared by every lesson: it may turn out to have no usable GPU halfway.
struct Machine {
  Toolchain tools;
  bool gpu = false;
  std::string no_gpu_reason;
  ChildSetup child;  // every test, driver, ncu and sanitizer process runs so confined

  void lose_gpu(const std::string& reason) {
    if (!gpu) return;
    gpu = false;
    no_gpu_reason = reason;
  }

  // A child (the submission's code) says there is no CUDA device: believed, and the GPU lost, only
  // when nvidia-smi agrees; otherwise the claim fails the child's item (code cannot opt out of grading).
  bool believe_no_gpu(const std::string& reason) {
    if (gpu && probe_gpu().present) return false;
    lose_gpu(reason);
    return true;
  }
};

// One ncu measurement: a value, or why there is none; `usable` is false when ncu itself cannot
// measure on this machine (counters not permitted, no device): the item then does not run.
struct NcuMeasurement {
  NcuValue value;
  bool usable = true;
  std::string problem;
  std::string output;
};

// Three runs of a driver, reduced to their best (best_of), or why they could not be used.
struct DriverRuns {
  bool ok = false;
  bool no_device = false;  // the driver found no CUDA device (common/driver.cpp, exit 2)
  DriverRun best;
  std::string error;
  std::string output;
};

struct LessonContext {
  const Rubric& rubric;
  std::filesystem::path bin_dir;
  std::filesystem::path scratch_dir;  // for the drivers' --json files and ncu logs
  const GradeSettings& settings;
  Machine& machine;

  std::map<std::string, TestRun> test_runs;                     // by test name
  std::map<std::vector<std::string>, DriverRuns> student_runs;  // by driver arguments
  std::map<std::vector<std::string>, DriverRuns> reference_runs;
  std::map<std::string, NcuMeasurement> ncu_measurements;  // by kernel, metric and arguments
  std::vector<std::string> rubric_errors;  // found only once the programs exist (a spec that lists nothing)

  const std::string& lesson() const { return rubric.lesson; }
  std::filesystem::path test_program() const { return bin_dir / ("test-" + rubric.lesson); }
  std::filesystem::path driver_program() const { return bin_dir / rubric.lesson; }
};

}  // namespace cudamatch::grade
