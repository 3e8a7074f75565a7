#include <filesystem>
#include <cstdint>
#include <fstream>
#include <random>
#include <sstream>

#include "items.hpp"
#include "process.hpp"
#include "sandbox.hpp"
#include "scoring.hpp"
#include "text.hpp"

namespace cudamatch::grade {

namespace fs = std::filesystem;

namespace {

constexpr int kRuns = 3;

std::uint64_t fresh_seed() {
  std::random_device device;
  return (static_cast<std::uint64_t>(device()) << 32) ^ device();
}

// Runs `program args --json FILE` three times and keeps the best of each row (best_of).
DriverRuns run_driver(const fs::path& program, const std::vector<std::string>& args, const std::string& label,
                      LessonContext& context) {
  DriverRuns runs;
  std::vector<DriverRun> parsed;
  for (int k = 1; k <= kRuns; ++k) {
    progress(context, label + " run " + std::to_string(k) + "/" + std::to_string(kRuns) + ": " + program.string() +
                          " " + join(args, " "));
    const fs::path json_file =
        context.scratch_dir /
        (label + "-" + std::to_string(context.student_runs.size() + context.reference_runs.size()) + "-" +
         std::to_string(k) + ".json");
    std::error_code ignored;
    fs::remove(json_file, ignored);
    ProcessSpec spec = confined_spec(context.machine.child);
    spec.argv = {program.string()};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.argv.insert(spec.argv.end(), {"--json", json_file.string()});
    spec.timeout_s = 4 * context.settings.timeout_s;
    spec.keep_bytes = 16384;
    // The matcher drivers (--seed-stdin) draw each timed run's text and pattern from this seed: new
    // in every run, and on neither the command line nor in the environment.
    spec.input = std::to_string(fresh_seed()) + "\n";
    const ProcessResult result = run_process(spec);
    runs.output =
        "$ " + join(spec.argv, " ") + "\n" + last_lines(result.output, 60, 6000) + "\n(" + result.describe() + ")\n";
    if (!result.started || result.timed_out || result.signal != 0) {
      runs.error = program.filename().string() + " " + result.describe();
      return runs;
    }
    if (result.exited_with(2) && result.output.find("no CUDA device was found") != std::string::npos) {
      runs.no_device = true;
      runs.error = last_lines(result.output, 1, 300);
      return runs;
    }
    const std::optional<std::string> json_text = read_written_file(json_file);
    if (!json_text) {
      runs.error = program.filename().string() + " " + result.describe() + " and wrote no --json file (a regular file)";
      return runs;
    }
    try {
      parsed.push_back(parse_driver_results(*json_text));
    } catch (const std::exception& e) {
      runs.error = program.filename().string() + "'s --json file: " + e.what();
      return runs;
    }
  }
  runs.ok = true;
  runs.best = best_of(parsed);
  return runs;
}

const DriverRuns& cached_runs(std::map<std::vector<std::string>, DriverRuns>& cache, const fs::path& program,
                              const std::vector<std::string>& args, const std::string& label, LessonContext& context) {
  auto it = cache.find(args);
  if (it == cache.end()) it = cache.emplace(args, run_driver(program, args, label, context)).first;
  return it->second;
}

std::string rows_table(const DriverRun& run, const PerformanceCheck& check) {
  std::string table;
  for (const auto& row : run.rows) {
    if (row.id != check.version && row.id != check.baseline) continue;
    table += "  " + row.case_label + " | " + row.label + " | " +
             (row.median_ms ? format_number(*row.median_ms, 4) + " ms" : "no time") + " | " +
             (row.gbps ? format_number(*row.gbps, 1) + " GB/s" : "no GB/s") + " | " +
             (row.valid ? "valid" : "INVALID") + "\n";
  }
  return table;
}

}  // namespace

ItemResult grade_performance_item(const RubricItem& item, const PerformanceCheck& check, LessonContext& context) {
  const fs::path program = context.driver_program();
  if (!fs::exists(program)) return rubric_error_item(item, context, "the lesson has no driver program");
  const std::vector<std::string>& args = context.rubric.driver_args_for(item);
  const DriverRuns& student = cached_runs(context.student_runs, program, args, "driver", context);
  if (student.no_device) {
    if (!context.machine.believe_no_gpu("no CUDA device: " + student.error)) {
      return failed_item(item, "the driver found no CUDA device though nvidia-smi sees the GPU", student.output);
    }
    return not_run_item(item, context.machine.no_gpu_reason);
  }
  if (!student.ok) return failed_item(item, student.error, student.output);

  const DriverRun* reference = nullptr;
  std::string reference_problem;
  if (context.settings.reference_bin) {
    const fs::path reference_program = *context.settings.reference_bin / context.lesson();
    if (!fs::exists(reference_program)) {
      reference_problem = "no reference driver " + reference_program.string();
    } else {
      const DriverRuns& runs = cached_runs(context.reference_runs, reference_program, args, "reference", context);
      if (runs.ok) reference = &runs.best;
      else reference_problem = "the reference driver failed (" + runs.error + ")";
    }
  }
  PerformanceScore score = score_performance(check, context.rubric.bounds, student.best, reference);
  if (!reference_problem.empty()) score.reason = reference_problem + ", so by the rubric's formula: " + score.reason;
  std::string output =
      score.details + "best of " + std::to_string(kRuns) + " runs:\n" + rows_table(student.best, check);
  if (reference != nullptr)
    output += "reference, best of " + std::to_string(kRuns) + " runs:\n" + rows_table(*reference, check);
  output += "last run:\n" + student.output;
  ItemResult result = scored_item(item, score.fraction, score.reason, output);
  result.ratio = score.ratio;
  return result;
}

}  // namespace cudamatch::grade
