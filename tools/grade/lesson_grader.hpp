// Grading one lesson: each rubric item in order, once the lesson's programs are built.
#pragma once

#include "grade_report.hpp"
#include "lesson_context.hpp"
#include "track_build.hpp"

namespace cudamatch::grade {

// When the build failed, every item that could have run here scores 0 with the compiler's errors
// in its output; items that could not run anyway (no GPU, no --ncu, ...) are "not run" either way,
// so a lesson's maximum does not depend on whether it compiled.
LessonResult grade_lesson(LessonContext& context, const LessonBuildResult& build);

}  // namespace cudamatch::grade
