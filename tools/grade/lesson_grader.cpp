#include "lesson_grader.hpp"

#include "items.hpp"
#include "text.hpp"

namespace cudamatch::grade {

namespace {

ItemResult grade_item(const RubricItem& item, LessonContext& context) {
  if (const auto* check = std::get_if<TestsCheck>(&item.check)) return grade_tests_item(item, *check, context);
  if (const auto* check = std::get_if<PerformanceCheck>(&item.check))
    return grade_performance_item(item, *check, context);
  if (const auto* check = std::get_if<NcuCheck>(&item.check)) return grade_ncu_item(item, *check, context);
  if (const auto* check = std::get_if<SassCheck>(&item.check)) return grade_sass_item(item, *check, context);
  return grade_sanitizer_item(item, std::get<SanitizerCheck>(item.check), context);
}

}  // namespace

LessonResult grade_lesson(LessonContext& context, const LessonBuildResult& build) {
  LessonResult result;
  result.lesson = context.lesson();
  if (!build.ok) {
    const std::string first = trim(build.errors.substr(0, build.errors.find('\n')));
    result.notes.push_back("the lesson does not compile: " + first);
  }
  for (const auto& item : context.rubric.items) {
    const std::string blocked = why_item_cannot_run(item, context);
    if (!blocked.empty()) {
      result.items.push_back(not_run_item(item, blocked));
    } else if (!build.ok) {
      result.items.push_back(failed_item(item, "the lesson does not compile", build.errors));
    } else {
      result.items.push_back(grade_item(item, context));
    }
  }
  return result;
}

}  // namespace cudamatch::grade
