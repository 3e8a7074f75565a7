// What the grader reads from lessons/<id>/lesson.json: the editable files, each safe to join to the
// lesson's folder and present there, and the rubric's name.
#include <catch2/catch.hpp>

#include "lesson_manifest.hpp"
#include "rubric.hpp"
#include "temp_dir.hpp"

using namespace cudamatch::grade;

namespace {

std::string error_of(const std::string& text) {
  try {
    parse_lesson_manifest(text, "lessons/x/lesson.json");
  } catch (const RubricError& e) {
    return e.what();
  }
  return "";
}

std::string manifest_with(const std::string& editable) {
  return R"({"title": "t", "editable": [)" + editable + R"(], "rubric": "rubric.json", "matcher": {"table": "x"}})";
}

}  // namespace

TEST_CASE("a manifest gives the editable files and the rubric, and leaves the build's keys alone", "[rubric]") {
  const LessonManifest manifest = parse_lesson_manifest(manifest_with(R"("saxpy.cu", "sub/dir/file.cu")"), "m.json");
  CHECK(manifest.editable == std::vector<std::string>{"saxpy.cu", "sub/dir/file.cu"});
  CHECK(manifest.rubric == "rubric.json");
  CHECK(parse_lesson_manifest(R"({"editable": ["a.cu"]})", "m.json").rubric.empty());  // not graded

  CHECK_THAT(error_of(R"({"rubric": "rubric.json"})"), Catch::Contains("needs \"editable\""));
  CHECK_THAT(error_of(R"({"editable": []})"), Catch::Contains("needs \"editable\""));
  CHECK_THAT(error_of(R"({"editable": "a.cu"})"), Catch::Contains("must be an array of strings"));
  CHECK_THAT(error_of(R"({"editable": ["a.cu"], "rubric": "../rubric.json"})"),
             Catch::Contains("lessons/x/lesson.json") && Catch::Contains("rubric \"../rubric.json\""));
  CHECK_THAT(error_of("[1, 2]"), Catch::Contains("lessons/x/lesson.json: must be a JSON object"));
}

TEST_CASE("a manifest's \"uses\" names the lessons whose editable files its build compiles too", "[rubric]") {
  CHECK(parse_lesson_manifest(R"({"editable": ["a.cu"], "uses": ["07-reductions"]})", "m.json").uses ==
        std::vector<std::string>{"07-reductions"});
  CHECK(parse_lesson_manifest(R"({"editable": ["a.cu"]})", "m.json").uses.empty());
  CHECK_THAT(error_of(R"({"editable": ["a.cu"], "uses": ["../07-reductions"]})"), Catch::Contains("not a lesson id"));
  CHECK_THAT(error_of(R"({"editable": ["a.cu"], "uses": "07-reductions"})"), Catch::Contains("array of strings"));
}

TEST_CASE("editable files must stay inside the lesson folder, once each", "[rubric]") {
  for (const char* bad : {R"("../../common/cuda_check.cpp")", R"("sub/../../x.cu")", R"("/etc/passwd")", R"("")",
                          R"("sub//x.cu")", R"("./x.cu")", R"("sub/")", R"("sub\\x.cu")"}) {
    INFO(bad);
    CHECK_THAT(error_of(manifest_with(bad)),
               Catch::Contains("lessons/x/lesson.json") && Catch::Contains("editable file"));
  }
  CHECK_THAT(error_of(manifest_with(R"("a.cu", "a.cu")")), Catch::Contains("listed twice"));
}

TEST_CASE("every editable file of a manifest exists in the lesson's folder", "[rubric]") {
  TempDir dir;
  const auto lesson = dir.path() / "00-measuring";
  write_file(lesson / "saxpy.cu", "");
  write_file(lesson / "lesson.json", manifest_with(R"("saxpy.cu")"));
  CHECK(load_lesson_manifest(lesson).file == lesson / "lesson.json");

  write_file(lesson / "lesson.json", manifest_with(R"("saxpy.cu", "measure.cpp")"));
  CHECK_THROWS_WITH(load_lesson_manifest(lesson),
                    Catch::Contains("lesson.json: editable file \"measure.cpp\" is not in"));
}
