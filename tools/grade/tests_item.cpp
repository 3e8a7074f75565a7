#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "items.hpp"
#include "parallel.hpp"
#include "scoring.hpp"

namespace cudamatch::grade {

namespace {

constexpr std::size_t kMaxItemOutput = 16384;

void append_capped(std::string& output, const std::string& text) {
  if (output.size() >= kMaxItemOutput) return;
  output += text;
  if (output.size() >= kMaxItemOutput) output += "\n[... more output cut ...]\n";
}

}  // namespace

ItemResult grade_tests_item(const RubricItem& item, const TestsCheck& check, LessonContext& context) {
  const auto program = context.test_program();
  if (!std::filesystem::exists(program)) return rubric_error_item(item, context, "the lesson has no test program");
  const TestListing listing = list_tests(program, check.spec, context.settings.timeout_s, context.machine.child);
  if (!listing.ok) return failed_item(item, "the tests could not be listed", listing.error);
  if (listing.names.empty()) {
    return rubric_error_item(item, context, "the test spec \"" + check.spec + "\" selects no test case");
  }

  // The cases no earlier item ran, test_jobs at a time (each its own process, each with its timeout).
  std::vector<std::string> pending;
  for (const std::string& name : listing.names) {
    if (context.test_runs.count(name) == 0) pending.push_back(name);
  }
  if (!pending.empty()) {
    progress(context, std::to_string(pending.size()) + " test case(s) of \"" + check.spec + "\", " +
                          std::to_string(std::min(pending.size(), context.settings.test_jobs)) + " at a time");
  }
  std::vector<TestRun> runs(pending.size());
  run_parallel(pending.size(), context.settings.test_jobs, [&](std::size_t i) {
    runs[i] = run_test(context.test_program(), pending[i], context.settings.timeout_s, context.machine.child);
  });
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (runs[i].verdict == TestVerdict::not_run && !context.machine.believe_no_gpu(runs[i].reason)) {
      runs[i].verdict = TestVerdict::failed;
      runs[i].reason = "skipped (" + runs[i].reason + ") though nvidia-smi sees the GPU";
    }
    context.test_runs.emplace(pending[i], std::move(runs[i]));
  }

  std::size_t passed = 0, not_run = 0;
  std::string first_failure, not_run_reason, output;
  for (const std::string& name : listing.names) {
    const TestRun& result = context.test_runs.at(name);
    if (result.verdict == TestVerdict::passed) {
      ++passed;
    } else if (result.verdict == TestVerdict::not_run) {
      ++not_run;
      not_run_reason = result.reason;
      append_capped(output, "not run: " + name + "\n");
    } else {
      if (first_failure.empty()) first_failure = "\"" + name + "\" (" + result.reason + ")";
      append_capped(output, "FAILED: " + name + ": " + result.reason + "\n" + result.output + "\n\n");
    }
  }
  const std::size_t listed = listing.names.size();
  if (not_run == listed) return not_run_item(item, not_run_reason, output);

  const std::size_t failed = listed - passed - not_run;
  std::string reason = std::to_string(passed) + " of " + std::to_string(listed) + " test cases passed";
  if (failed > 0) reason += ", " + std::to_string(failed) + " failed, e.g. " + first_failure;
  if (not_run > 0) reason += ", " + std::to_string(not_run) + " not run (" + not_run_reason + ")";
  const TestsScore score = score_tests(item.points, listed, passed, not_run);
  ItemResult result = scored_item(item, failed == 0 ? 1.0 : 0.0, reason, output);
  result.score = score.score;
  result.max_score = score.max_score;
  return result;
}

}  // namespace cudamatch::grade
