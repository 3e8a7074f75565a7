#include <iostream>

#include "items.hpp"
#include "text.hpp"

namespace cudamatch::grade {

std::string why_item_cannot_run(const RubricItem& item, const LessonContext& context) {
  const Machine& machine = context.machine;
  if (std::holds_alternative<TestsCheck>(item.check)) return "";  // each GPU test case says so itself
  if (std::holds_alternative<SassCheck>(item.check)) {
    return machine.tools.cuobjdump ? "" : "cuobjdump not found (it comes with the CUDA Toolkit)";
  }
  if (std::holds_alternative<NcuCheck>(item.check)) {
    if (!context.settings.ncu) return "profiling items run with --ncu";
    if (!machine.gpu) return machine.no_gpu_reason;
    return machine.tools.ncu ? "" : "ncu not found (Nsight Compute: the PATH or the CUDA Toolkit's bin)";
  }
  if (std::holds_alternative<SanitizerCheck>(item.check)) {
    if (!context.settings.sanitize) return "sanitizer items run with --sanitize";
    if (!machine.gpu) return machine.no_gpu_reason;
    return machine.tools.compute_sanitizer ? "" : "compute-sanitizer not found (it comes with the CUDA Toolkit)";
  }
  return machine.gpu ? "" : machine.no_gpu_reason;  // performance
}

ItemResult rubric_error_item(const RubricItem& item, LessonContext& context, const std::string& problem) {
  context.rubric_errors.push_back(context.rubric.file.string() + ": item \"" + item.id + "\": " + problem);
  return not_run_item(item, "rubric error: " + problem);
}

void progress(const LessonContext& context, const std::string& message) {
  std::cerr << "cudamatch-grade: " << elapsed_stamp() << " [" << context.lesson() << "] " << message << std::endl;
}

}  // namespace cudamatch::grade
