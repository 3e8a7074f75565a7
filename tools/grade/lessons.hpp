// Which lessons to grade: --lessons "00,03,07-12" against the lessons that lessons/course.json lists.
#pragma once

#include <filesystem>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cudamatch::grade {

struct LessonSelectionError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// "00,03,07-12" -> {0, 3, 7, 8, 9, 10, 11, 12}; throws LessonSelectionError on anything else.
std::set<int> parse_lesson_numbers(const std::string& spec);

struct CourseLesson {
  int number = 0;
  std::string id;  // "11-brute-force"
  std::filesystem::path dir;
  bool has_rubric = false;  // its lesson.json names a rubric
};

// The lessons of lessons/course.json, in its order, each with its lesson.json read; a mistake in
// either file is a RubricError naming it.
std::vector<CourseLesson> course_lessons(const std::filesystem::path& course);

// The lessons `spec` names (every lesson with a rubric when it is empty); a number that names no
// lesson, or a named lesson without a rubric, is an error.
std::vector<CourseLesson> select_lessons(const std::vector<CourseLesson>& lessons, const std::string& spec);

}  // namespace cudamatch::grade
