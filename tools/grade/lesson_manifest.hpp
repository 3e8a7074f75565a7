// What the grader takes from a lesson's manifest, lessons/<id>/lesson.json (the file cmake/Lessons.cmake
// builds the lesson from): the files a student may edit, the lesson's rubric, and the earlier lessons
// whose code the lesson's build compiles in ("uses": lesson 11 runs on lesson 07's block sums). The
// manifest's other keys belong to the build and are not read here. A mistake is a RubricError naming lesson.json.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace cudamatch::grade {

struct LessonManifest {
  std::filesystem::path file;
  std::vector<std::string> editable;  // relative to lessons/<id>/, checked safe to join to a path
  std::string rubric;                 // the rubric's file name in lessons/<id>/; empty: the lesson is not graded
  std::vector<std::string> uses;      // lesson ids ("07-reductions") whose editable files this lesson compiles
};

// Parses and checks the grader's fields of a manifest's text; `file` names it in errors.
LessonManifest parse_lesson_manifest(const std::string& text, const std::filesystem::path& file);

// Reads <lesson_dir>/lesson.json and also checks that every editable file exists in the folder (the
// starter's copy).
LessonManifest load_lesson_manifest(const std::filesystem::path& lesson_dir);

}  // namespace cudamatch::grade
