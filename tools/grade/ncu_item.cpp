#include <filesystem>
#include <fstream>
#include <sstream>

#include "items.hpp"
#include "process.hpp"
#include "sandbox.hpp"
#include "text.hpp"

namespace cudamatch::grade {

namespace fs = std::filesystem;

namespace {

// The metric of the first launch of the kernels matching `kernel` (a regex over the demangled name,
// so "transpose_tiled_kernel<33>" picks one instantiation of a template) in one driver run.
NcuMeasurement measure(const std::string& kernel, const std::string& metric, const std::vector<std::string>& args,
                       LessonContext& context) {
  NcuMeasurement measurement;
  const fs::path log = context.scratch_dir / ("ncu-" + std::to_string(context.ncu_measurements.size()) + ".log");
  std::error_code ignored;
  fs::remove(log, ignored);
  ProcessSpec spec = confined_spec(context.machine.child);
  spec.argv = {context.machine.tools.ncu->string(),
               "--clock-control",
               "none",
               "--print-units",
               "base",
               "--csv",
               "--kernel-name-base",
               "demangled",
               "--kernel-name",
               "regex:" + kernel,
               "--launch-count",
               "1",
               "--metrics",
               metric,
               "--log-file",
               log.string(),
               context.driver_program().string()};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.timeout_s = 4 * context.settings.timeout_s;
  spec.keep_bytes = 16384;
  progress(context, "ncu " + metric + " of " + kernel);
  const ProcessResult result = run_process(spec);
  const std::string report = read_written_file(log).value_or("");
  const std::string everything = report + "\n" + result.output;
  measurement.output =
      "$ " + join(spec.argv, " ") + "\n" + last_lines(everything, 40, 6000) + "\n(" + result.describe() + ")\n";
  measurement.problem = ncu_unusable_reason(everything);
  if (!measurement.problem.empty()) {
    measurement.usable = false;
    return measurement;
  }
  if (!result.started || result.timed_out || result.signal != 0) {
    measurement.problem = "ncu " + result.describe();
    return measurement;
  }
  measurement.value = read_ncu_csv(report, metric);
  if (!measurement.value.found) measurement.problem = measurement.value.error + " (kernel regex \"" + kernel + "\")";
  return measurement;
}

const NcuMeasurement& cached_measurement(const std::string& kernel, const std::string& metric,
                                         const std::vector<std::string>& args, LessonContext& context) {
  const std::string key = kernel + '\n' + metric + '\n' + join(args, "\n");
  auto it = context.ncu_measurements.find(key);
  if (it == context.ncu_measurements.end())
    it = context.ncu_measurements.emplace(key, measure(kernel, metric, args, context)).first;
  return it->second;
}

}  // namespace

ItemResult grade_ncu_item(const RubricItem& item, const NcuCheck& check, LessonContext& context) {
  if (!fs::exists(context.driver_program()))
    return rubric_error_item(item, context, "the lesson has no driver program");
  const std::vector<std::string>& args = context.rubric.driver_args_for(item);
  const NcuMeasurement& value = cached_measurement(check.kernel, check.metric, args, context);
  if (!value.usable) return not_run_item(item, value.problem, value.output);
  if (!value.value.found) return failed_item(item, value.problem, value.output);
  std::string output = value.output;
  std::optional<double> relative;
  if (!check.relative_to_kernel.empty()) {
    const NcuMeasurement& base = cached_measurement(check.relative_to_kernel, check.metric, args, context);
    if (!base.usable) return not_run_item(item, base.problem, base.output);
    if (!base.value.found) return failed_item(item, base.problem, base.output);
    relative = base.value.value;
    output += base.output;
  }
  const NcuJudgement judgement = judge_ncu(check, value.value.value, relative);
  return scored_item(item, judgement.passed ? 1.0 : 0.0, judgement.reason, output);
}

}  // namespace cudamatch::grade
