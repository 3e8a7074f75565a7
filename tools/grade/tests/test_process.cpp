// The process runner: a timeout kills the whole process group, signals and exit codes are reported,
// output is captured (and capped), children run side by side from several threads.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <string>
#include <vector>

#include "catch_tests.hpp"
#include "parallel.hpp"
#include "process.hpp"
#include "temp_dir.hpp"

using namespace cudamatch::grade;

namespace {

ProcessSpec shell(const std::string& script, double timeout_s = 30) {
  ProcessSpec spec;
  spec.argv = {"/bin/sh", "-c", script};
  spec.timeout_s = timeout_s;
  return spec;
}

// Whether process `pid` still runs (a zombie waiting for init to reap it does not).
bool running(const std::string& pid) {
  std::ifstream stat("/proc/" + pid + "/stat");
  std::string ignored, state;
  if (!(stat >> ignored)) return false;
  std::getline(stat, ignored, ')');
  stat >> state;
  return state != "Z" && state != "X";
}

}  // namespace

TEST_CASE("a timeout kills a sleeping child", "[process]") {
  const ProcessResult result = run_process(shell("sleep 30", 1));
  CHECK(result.started);
  CHECK(result.timed_out);
  CHECK(result.seconds < 10);
  CHECK(result.describe() == "timed out after 1 s");
  CHECK_FALSE(result.exited_with(0));
}

TEST_CASE("a timeout kills the child's whole process group", "[process]") {
  const ProcessResult result = run_process(shell("sleep 30 & echo $!; wait", 1));
  REQUIRE(result.timed_out);
  const std::string pid = result.output.substr(0, result.output.find('\n'));
  REQUIRE_FALSE(pid.empty());
  CHECK_FALSE(running(pid));
}

TEST_CASE("a child that leaves a process behind does not keep the grader waiting", "[process]") {
  const ProcessResult result = run_process(shell("sleep 30 & echo started", 60));
  CHECK(result.exited_with(0));
  CHECK(result.seconds < 10);
  CHECK(result.output == "started\n");
}

TEST_CASE("signals and exit codes are reported", "[process]") {
  const ProcessResult crashed = run_process(shell("kill -SEGV $$"));
  CHECK(crashed.signal == 11);
  CHECK_THAT(crashed.describe(), Catch::StartsWith("killed by signal 11"));
  const ProcessResult failed = run_process(shell("exit 3"));
  CHECK(failed.exit_code == 3);
  CHECK(failed.describe() == "exit 3");
  CHECK(failed.exited_with(3));
  CHECK(run_process(shell("exit 77")).exited_with(77));
}

TEST_CASE("output is captured, stderr with it or apart", "[process]") {
  ProcessSpec spec = shell("echo out; echo err >&2; printf 'no newline'");
  const ProcessResult merged = run_process(spec);
  CHECK(merged.output == "out\nerr\nno newline");
  spec.merge_stderr = false;
  const ProcessResult apart = run_process(spec);
  CHECK(apart.output == "out\nno newline");
  CHECK(apart.errors == "err\n");
}

TEST_CASE("only the last bytes of a long output are kept", "[process]") {
  ProcessSpec spec = shell("i=0; while [ $i -lt 20000 ]; do echo line $i; i=$((i+1)); done");
  spec.keep_bytes = 1000;
  const ProcessResult result = run_process(spec);
  CHECK(result.exited_with(0));
  CHECK(result.output.size() < 1100);
  CHECK_THAT(result.output, Catch::StartsWith("[... earlier output cut ...]") && Catch::EndsWith("line 19999\n"));
}

TEST_CASE("environment, working directory, and a program that cannot start", "[process]") {
  ProcessSpec spec = shell("echo $GRADE_TEST_VALUE; pwd");
  spec.environment = {{"GRADE_TEST_VALUE", "forty two"}};
  spec.working_directory = "/";
  CHECK(run_process(spec).output == "forty two\n/\n");

  ProcessSpec missing;
  missing.argv = {"/nonexistent/program"};
  const ProcessResult result = run_process(missing);
  CHECK_FALSE(result.started);
  CHECK_THAT(result.describe(), Catch::StartsWith("could not start: /nonexistent/program: No such file"));
}

TEST_CASE("children run side by side from several threads, each with its own environment and timeout", "[process]") {
  constexpr std::size_t kChildren = 12;
  std::vector<ProcessResult> results(kChildren);
  const auto start = std::chrono::steady_clock::now();
  run_parallel(kChildren, 6, [&](std::size_t i) {
    // Child 0 hangs and must be killed at its timeout while the others finish.
    ProcessSpec spec = shell(i == 0 ? "sleep 30" : "sleep 0.2; echo \"child $CHILD\"", i == 0 ? 2 : 30);
    spec.environment = {{"CHILD", std::to_string(i)}};
    results[i] = run_process(spec);
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(results[0].timed_out);
  for (std::size_t i = 1; i < kChildren; ++i) {
    INFO("child " << i);
    CHECK(results[i].exited_with(0));
    CHECK(results[i].output == "child " + std::to_string(i) + "\n");
  }
  CHECK(seconds < 10);  // 11 children of 0.2 s and a 2 s timeout, six at a time
}

TEST_CASE("run_parallel calls the body once per index, on one thread or many", "[process]") {
  for (std::size_t jobs : {1, 3, 64}) {
    std::vector<int> calls(100, 0);
    run_parallel(calls.size(), jobs, [&](std::size_t i) { ++calls[i]; });
    CHECK(std::count(calls.begin(), calls.end(), 1) == 100);
  }
  run_parallel(0, 4, [](std::size_t) { FAIL("no index to run"); });
}

TEST_CASE("standard input, and a confined child gets only its setup's environment", "[process]") {
  ProcessSpec spec = shell("read seed; echo \"got $seed\"; cat");
  spec.input = "1234567\nrest\n";
  CHECK(run_process(spec).output == "got 1234567\nrest\n");
  spec.input = std::string(kMaxInputBytes + 1, 'x');
  CHECK_THAT(run_process(spec).describe(), Catch::Contains("standard input of"));

  ChildSetup setup;
  setup.environment = {{"PATH", "/usr/bin:/bin"}, {"KEPT", "yes"}};
  ProcessSpec confined = confined_spec(setup);
  confined.argv = {"/bin/sh", "-c", "env | sort"};
  confined.environment = {{"ADDED", "too"}};
  confined.timeout_s = 30;
  setenv("CUDAMATCH_GRADER_SECRET", "leaked", 1);
  const std::string output = run_process(confined).output;
  unsetenv("CUDAMATCH_GRADER_SECRET");
  CHECK_THAT(output, Catch::Contains("KEPT=yes") && Catch::Contains("ADDED=too"));
  CHECK_THAT(output, !Catch::Contains("CUDAMATCH_GRADER_SECRET") && !Catch::Contains("HOME="));
}

TEST_CASE("a test case passes on exit 0 with Catch2's summary, not on exit 0 alone", "[process]") {
  const TempDir dir;
  const auto script = [&](const std::string& name, const std::string& body) {
    std::filesystem::path path = dir.path() / name;
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    return path;
  };
  const ChildSetup child{{{"PATH", "/usr/bin:/bin"}}, std::nullopt};
  CHECK(run_test(script("pass", "echo 'All tests passed (3 assertions in 1 test case)'"), "t", 30, child).verdict ==
        TestVerdict::passed);
  const TestRun silent = run_test(script("silent", "exit 0"), "t", 30, child);
  CHECK(silent.verdict == TestVerdict::failed);
  CHECK_THAT(silent.reason, Catch::Contains("without Catch2's summary"));
  CHECK(run_test(script("skip", "echo 'SKIPPED: no CUDA device'; exit 77"), "t", 30, child).verdict ==
        TestVerdict::not_run);
  CHECK_FALSE(silent.timed_out);
  // A hang: failed, marked timed out, so that the sanitizer item need not wait 4x as long for it again.
  const TestRun hang = run_test(script("hang", "exec sleep 30"), "hung case", 0.5, child);
  CHECK(hang.verdict == TestVerdict::failed);
  CHECK(hang.timed_out);
  const std::map<std::string, TestRun> runs{{"fine", silent}, {"hung case", hang}};
  CHECK(first_timed_out({"fine", "never run"}, runs) == nullptr);
  const std::string* hung = first_timed_out({"fine", "never run", "hung case"}, runs);
  REQUIRE(hung != nullptr);
  CHECK(*hung == "hung case");
}
