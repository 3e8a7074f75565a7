// Grading one rubric item of each kind, once its lesson has built (see lesson_grader.hpp).
#pragma once

#include <string>

#include "grade_report.hpp"
#include "lesson_context.hpp"

namespace cudamatch::grade {

// Why `item` cannot run on this machine with these settings (--ncu or --sanitize not given, no GPU,
// a CUDA tool missing), or "" when it can. Such items are "not run": their points leave the maximum.
std::string why_item_cannot_run(const RubricItem& item, const LessonContext& context);

ItemResult grade_tests_item(const RubricItem& item, const TestsCheck& check, LessonContext& context);
ItemResult grade_performance_item(const RubricItem& item, const PerformanceCheck& check, LessonContext& context);
ItemResult grade_ncu_item(const RubricItem& item, const NcuCheck& check, LessonContext& context);
ItemResult grade_sass_item(const RubricItem& item, const SassCheck& check, LessonContext& context);
ItemResult grade_sanitizer_item(const RubricItem& item, const SanitizerCheck& check, LessonContext& context);

// A rubric mistake that shows only once the lesson is built (a test spec that selects nothing, a
// program the lesson does not have): recorded in the context, and the item does not run.
ItemResult rubric_error_item(const RubricItem& item, LessonContext& context, const std::string& problem);

// Progress on stderr: "cudamatch-grade: [11-brute-force] message".
void progress(const LessonContext& context, const std::string& message);

}  // namespace cudamatch::grade
