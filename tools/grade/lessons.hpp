// Which lessons to grade: --lessons "00,03,07-12" against the course's lessons/NN-topic folders.
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
  std::string id;  // "07-brute-force"
  std::filesystem::path dir;
  bool has_rubric = false;
};

// The course's lessons/NN-* folders, in order.
std::vector<CourseLesson> course_lessons(const std::filesystem::path& course);

// The lessons `spec` names (every lesson with a rubric.json when it is empty); a number that names no
// lesson, or a named lesson without a rubric, is an error.
std::vector<CourseLesson> select_lessons(const std::vector<CourseLesson>& lessons, const std::string& spec);

}  // namespace cudamatch::grade
