// A lesson's Catch2 2.x test program, driven one test case per process: list the cases a spec
// selects, run each by its exact name with a time limit.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "process.hpp"

namespace cudamatch::grade {

// The names in the output of --list-test-names-only (Catch2 quotes names that start with '#').
std::vector<std::string> parse_test_names(const std::string& listing);

struct TestListing {
  bool ok = false;
  std::vector<std::string> names;
  std::string error;
};

TestListing list_tests(const std::filesystem::path& program, const std::string& spec, double timeout_s,
                       const ChildSetup& child);

enum class TestVerdict { passed, failed, not_run };

struct TestRun {
  TestVerdict verdict = TestVerdict::failed;
  bool timed_out = false;  // failed by the timeout (a hang, or far too slow)
  std::string reason;      // failed: "exit 1", "timed out after 300 s", ...; not run: why
  std::string output;      // the last lines of the test's output
};

// The first of `names` that timed out in `runs` (the cases earlier items ran), or nullptr.
const std::string* first_timed_out(const std::vector<std::string>& names, const std::map<std::string, TestRun>& runs);

// Exit 0 with Catch2's summary "All tests passed (... in 1 test case)": passed; 77: not run (the reason is
// the program's "SKIPPED: ..." line); anything else failed.
TestRun run_test(const std::filesystem::path& program, const std::string& name, double timeout_s,
                 const ChildSetup& child);

}  // namespace cudamatch::grade
