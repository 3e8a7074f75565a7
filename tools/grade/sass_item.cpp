#include <filesystem>

#include "items.hpp"
#include "process.hpp"
#include "sass_dump.hpp"
#include "text.hpp"

namespace cudamatch::grade {

ItemResult grade_sass_item(const RubricItem& item, const SassCheck& check, LessonContext& context) {
  const std::filesystem::path binary = check.binary == "test" ? context.test_program() : context.driver_program();
  if (!std::filesystem::exists(binary)) {
    return rubric_error_item(item, context, "the lesson has no " + binary.filename().string());
  }
  ProcessSpec spec = confined_spec(context.machine.child);  // the binary is the submission's build
  spec.argv = {context.machine.tools.cuobjdump->string(), "-sass", binary.string()};
  spec.timeout_s = context.settings.timeout_s;
  spec.keep_bytes = std::size_t{256} << 20;  // the whole listing: the function may be anywhere in it
  spec.merge_stderr = false;
  progress(context, "cuobjdump -sass " + binary.filename().string());
  const ProcessResult result = run_process(spec);
  if (!result.exited_with(0)) {
    return failed_item(item, "cuobjdump " + result.describe(), last_lines(result.errors, 20, 2000));
  }
  const SassJudgement judgement = judge_sass(check, parse_sass(result.output));
  return scored_item(item, judgement.passed ? 1.0 : 0.0, judgement.reason);
}

}  // namespace cudamatch::grade
