#include "lessons.hpp"

#include <algorithm>
#include <cctype>
#include <iterator>
#include <sstream>

#include "json_fields.hpp"
#include "lesson_manifest.hpp"

namespace cudamatch::grade {

namespace fs = std::filesystem;

namespace {

int lesson_number(const std::string& text, const std::string& spec) {
  const bool digits = !text.empty() && text.size() <= 3 &&
                      std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
  if (!digits) throw LessonSelectionError("--lessons \"" + spec + "\": \"" + text + "\" is not a lesson number");
  return std::stoi(text);
}

}  // namespace

std::set<int> parse_lesson_numbers(const std::string& spec) {
  std::set<int> numbers;
  std::istringstream parts(spec);
  for (std::string part; std::getline(parts, part, ',');) {
    const auto dash = part.find('-');
    if (dash == std::string::npos) {
      numbers.insert(lesson_number(part, spec));
      continue;
    }
    const int first = lesson_number(part.substr(0, dash), spec);
    const int last = lesson_number(part.substr(dash + 1), spec);
    if (last < first) throw LessonSelectionError("--lessons \"" + spec + "\": the range " + part + " is backwards");
    for (int n = first; n <= last; ++n) numbers.insert(n);
  }
  if (numbers.empty() || spec.back() == ',')
    throw LessonSelectionError("--lessons \"" + spec + "\": no lesson numbers");
  return numbers;
}

std::vector<CourseLesson> course_lessons(const fs::path& course) {
  const fs::path file = course / "lessons" / "course.json";
  const nlohmann::json document = parse_json_file_text(read_course_file(file), file);
  FieldReader reader(document, file.string());
  const auto ids = reader.optional_texts("lessons");
  if (!ids || ids->empty()) reader.fail("needs \"lessons\": the lesson folders, in order");
  std::vector<CourseLesson> lessons;
  for (const auto& id : *ids) {
    if (id.size() < 4 || !std::isdigit(static_cast<unsigned char>(id[0])) ||
        !std::isdigit(static_cast<unsigned char>(id[1])) || id[2] != '-' || id.find('/') != std::string::npos) {
      reader.fail("lesson \"" + id + "\" is not a lesson folder's name (NN-topic)");
    }
    const int number = std::stoi(id.substr(0, 2));
    for (const auto& earlier : lessons) {
      if (earlier.number == number) reader.fail("lessons " + earlier.id + " and " + id + " have the same number");
    }
    const fs::path dir = course / "lessons" / id;
    const fs::path manifest_file = dir / "lesson.json";
    const LessonManifest manifest = parse_lesson_manifest(read_course_file(manifest_file), manifest_file);
    lessons.push_back(CourseLesson{number, id, dir, !manifest.rubric.empty()});
  }
  return lessons;
}

std::vector<CourseLesson> select_lessons(const std::vector<CourseLesson>& lessons, const std::string& spec) {
  std::vector<CourseLesson> selected;
  if (spec.empty()) {
    std::copy_if(lessons.begin(), lessons.end(), std::back_inserter(selected),
                 [](const CourseLesson& l) { return l.has_rubric; });
    if (selected.empty())
      throw LessonSelectionError("no lesson of the course names a rubric in its lesson.json: nothing to grade");
    return selected;
  }
  for (int number : parse_lesson_numbers(spec)) {
    const auto it =
        std::find_if(lessons.begin(), lessons.end(), [&](const CourseLesson& l) { return l.number == number; });
    if (it == lessons.end())
      throw LessonSelectionError("--lessons: the course has no lesson " + std::to_string(number));
    if (!it->has_rubric)
      throw LessonSelectionError("--lessons: lesson " + it->id +
                                 " names no rubric in its lesson.json: it cannot be graded");
    selected.push_back(*it);
  }
  return selected;
}

}  // namespace cudamatch::grade
