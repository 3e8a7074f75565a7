#include "catch_tests.hpp"

#include <sstream>

#include "common/catch_test_spec.hpp"
#include "process.hpp"
#include "text.hpp"

namespace cudamatch::grade {

namespace {

constexpr int kSkipExitCode = 77;  // a GPU test without a CUDA device (tests/support/catch_main.cpp)

std::string skip_reason(const std::string& output) {
  const auto at = output.find("SKIPPED: ");
  if (at == std::string::npos) return "no CUDA device";
  const auto end = output.find('\n', at);
  return output.substr(at + 9, end == std::string::npos ? std::string::npos : end - at - 9);
}

}  // namespace

std::vector<std::string> parse_test_names(const std::string& listing) {
  std::vector<std::string> names;
  std::istringstream lines(listing);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line.size() >= 2 && line.front() == '"' && line.back() == '"' && line[1] == '#')
      line = line.substr(1, line.size() - 2);
    names.push_back(line);
  }
  return names;
}

TestListing list_tests(const std::filesystem::path& program, const std::string& spec, double timeout_s,
                       const ChildSetup& child) {
  ProcessSpec process = confined_spec(child);
  process.argv = {program.string(), "--list-test-names-only", spec};
  process.timeout_s = timeout_s;
  process.merge_stderr = false;
  process.keep_bytes = 1 << 20;
  const ProcessResult result = run_process(process);
  TestListing listing;
  // Catch2 2.x exits with the number of test cases listed: any exit status is fine, a crash is not.
  if (!result.started || result.timed_out || result.signal != 0) {
    listing.error = "listing the tests of " + program.filename().string() + " " + result.describe() + "\n" +
                    last_lines(result.errors, 20, 2000);
    return listing;
  }
  if (trim(result.output).empty() && !trim(result.errors).empty()) {
    listing.error =
        "listing the tests of " + program.filename().string() + " failed: " + last_lines(result.errors, 20, 2000);
    return listing;
  }
  listing.ok = true;
  listing.names = parse_test_names(result.output);
  return listing;
}

TestRun run_test(const std::filesystem::path& program, const std::string& name, double timeout_s,
                 const ChildSetup& child) {
  ProcessSpec process = confined_spec(child);
  // -w NoTests: a name that selected nothing is an error (exit 2), never a silent pass.
  process.argv = {program.string(), "-w", "NoTests", exact_test_spec(name)};
  process.timeout_s = timeout_s;
  const ProcessResult result = run_process(process);
  TestRun run;
  run.output = last_lines(result.output, 60, 8192);
  // A pass is exit 0 and Catch2's summary of one test case: code that ends the process early with
  // status 0 (before the test ran) does not pass.
  if (result.exited_with(0) && result.output.find("All tests passed (") != std::string::npos &&
      result.output.find(" in 1 test case)") != std::string::npos) {
    run.verdict = TestVerdict::passed;
  } else if (result.exited_with(kSkipExitCode)) {
    run.verdict = TestVerdict::not_run;
    run.reason = skip_reason(result.output);
  } else {
    run.verdict = TestVerdict::failed;
    run.timed_out = result.timed_out;
    run.reason = result.exited_with(0) ? "exit 0 without Catch2's summary of a passed test case" : result.describe();
  }
  return run;
}

const std::string* first_timed_out(const std::vector<std::string>& names, const std::map<std::string, TestRun>& runs) {
  for (const std::string& name : names) {
    const auto run = runs.find(name);
    if (run != runs.end() && run->second.timed_out) return &name;
  }
  return nullptr;
}

}  // namespace cudamatch::grade
