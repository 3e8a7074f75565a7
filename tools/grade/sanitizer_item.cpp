#include <filesystem>
#include <string>
#include <vector>

#include "items.hpp"
#include "parallel.hpp"
#include "process.hpp"
#include "text.hpp"

namespace cudamatch::grade {

namespace {

constexpr int kSkipExitCode = 77;

struct SanitizerTool {
  const char* name;
  const char* clean;  // what its summary says when it found nothing
};

std::string summary_line(const std::string& output) {
  const auto at = output.rfind("SUMMARY:");
  if (at == std::string::npos) return "no summary";
  const auto newline = output.rfind('\n', at);
  const std::size_t start = newline == std::string::npos ? 0 : newline + 1;
  return trim(output.substr(start, output.find('\n', at) - start));  // npos - start: to the end
}

}  // namespace

ItemResult grade_sanitizer_item(const RubricItem& item, const SanitizerCheck& check, LessonContext& context) {
  if (!std::filesystem::exists(context.test_program())) {
    return rubric_error_item(item, context, "the lesson has no test program");
  }
  // A case that hung without the sanitizers hangs under them too, for 4x the timeout per tool: a
  // hanging submission would cost minutes of GPU time to score what is already known.
  const TestListing listing =
      list_tests(context.test_program(), check.spec, context.settings.timeout_s, context.machine.child);
  if (listing.ok) {
    if (const std::string* hung = first_timed_out(listing.names, context.test_runs)) {
      return scored_item(item, 0.0, "not run under compute-sanitizer: \"" + *hung + "\" timed out without it", "");
    }
  }
  const SanitizerTool tools[] = {{"memcheck", "ERROR SUMMARY: 0 errors"},
                                 {"racecheck", "RACECHECK SUMMARY: 0 hazards"}};
  // Both tools at once when tests may run in parallel.
  std::vector<ProcessSpec> specs;
  for (const auto& tool : tools) {
    ProcessSpec spec = confined_spec(context.machine.child);
    spec.argv = {context.machine.tools.compute_sanitizer->string(),
                 "--tool",
                 tool.name,
                 "--error-exitcode",
                 "99",
                 context.test_program().string(),
                 check.spec};
    spec.environment.emplace_back("CUDAMATCH_TEST_QUICK", "1");
    spec.timeout_s = 4 * context.settings.timeout_s;
    spec.keep_bytes = 65536;
    specs.push_back(spec);
  }
  progress(context, "compute-sanitizer memcheck and racecheck \"" + check.spec + "\"");
  std::vector<ProcessResult> results(specs.size());
  run_parallel(specs.size(), context.settings.test_jobs, [&](std::size_t i) { results[i] = run_process(specs[i]); });

  bool clean = true;
  std::vector<std::string> verdicts;
  std::string output;
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const ProcessResult& result = results[i];
    if (result.exited_with(kSkipExitCode)) {
      if (!context.machine.believe_no_gpu("no CUDA device (the test program found none under compute-sanitizer)")) {
        return failed_item(item, "the tests skipped under compute-sanitizer though nvidia-smi sees the GPU",
                           last_lines(result.output, 20, 2000));
      }
      return not_run_item(item, context.machine.no_gpu_reason, last_lines(result.output, 20, 2000));
    }
    const bool ok = result.exited_with(0) && result.output.find(tools[i].clean) != std::string::npos;
    clean = clean && ok;
    verdicts.push_back(std::string(tools[i].name) + ": " + result.describe() + ", " + summary_line(result.output));
    output += "$ " + join(specs[i].argv, " ") + "\n" +
              (ok ? last_lines(result.output, 5, 1000) : last_lines(result.output, 80, 8000)) + "\n\n";
  }
  return scored_item(item, clean ? 1.0 : 0.0, join(verdicts, "; "), output);
}

}  // namespace cudamatch::grade
