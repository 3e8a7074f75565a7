// The course copy and the submission overlay: only the lessons' editable files are taken; paths
// outside the lesson, links and anything else in the submission are refused or ignored, and said so.
#include <catch2/catch.hpp>

#include <algorithm>
#include <thread>

#include "course_copy.hpp"
#include "lesson_manifest.hpp"
#include "rubric.hpp"
#include "submission.hpp"
#include "temp_dir.hpp"

using namespace cudamatch::grade;
namespace fs = std::filesystem;

namespace {

const char* const kRubric =
    R"({"lesson": "00-measuring", "items": [{"id": "t", "name": "n", "kind": "tests", "points": 1, "tests": "*"}]})";

// A small course: a lesson with two editable files and a driver, and what the copy leaves out.
void make_course(const fs::path& course) {
  write_file(course / "CMakeLists.txt", "project(x)\n");
  write_file(course / "lessons/00-measuring/saxpy.cu", "starter saxpy\n");
  write_file(course / "lessons/00-measuring/measure.cpp", "starter measure\n");
  write_file(course / "lessons/00-measuring/sub/extra.cu", "starter extra\n");
  write_file(course / "lessons/00-measuring/driver.cu", "driver\n");
  write_file(course / "build/default/bin/x", "binary\n");
  write_file(course / ".git/HEAD", "ref\n");
  write_file(course / ".deps/root/x", "dep\n");
  write_file(course / "datasets/cache/E.coli", "ACGT\n");
  write_file(course / "datasets/fetch.py", "fetch\n");
}

// A course, its copy, the rubric of its lesson with the manifest's editable files, and an empty
// submission folder to fill.
struct OverlayFixture {
  TempDir dir;
  fs::path course = dir.path() / "course", copy = dir.path() / "copy", submission = dir.path() / "submission";
  std::vector<Rubric> rubrics{parse_rubric(kRubric, "rubric.json")};

  OverlayFixture() {
    make_course(course);
    mirror_course(course, copy);
    rubrics[0].editable = {"saxpy.cu", "measure.cpp", "sub/extra.cu"};
  }
};

bool contains(const std::vector<std::string>& list, const std::string& text) {
  return std::any_of(list.begin(), list.end(), [&](const std::string& s) { return s.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("the course copy leaves out builds, clones and caches, and rewrites only what changed", "[submission]") {
  TempDir dir;
  const fs::path course = dir.path() / "course", copy = dir.path() / "copy";
  make_course(course);
  mirror_course(course, copy);
  CHECK(read_file(copy / "lessons/00-measuring/saxpy.cu") == "starter saxpy\n");
  CHECK(read_file(copy / "datasets/fetch.py") == "fetch\n");
  CHECK_FALSE(fs::exists(copy / "build"));
  CHECK_FALSE(fs::exists(copy / ".git"));
  CHECK_FALSE(fs::exists(copy / ".deps"));
  CHECK_FALSE(fs::exists(copy / "datasets/cache"));

  // A second mirror restores what a submission changed, removes what it added, keeps the rest as is.
  const auto untouched_time = fs::last_write_time(copy / "lessons/00-measuring/driver.cu");
  write_file(copy / "lessons/00-measuring/saxpy.cu", "student saxpy\n");
  write_file(copy / "lessons/00-measuring/new.cu", "stray\n");
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  mirror_course(course, copy);
  CHECK(read_file(copy / "lessons/00-measuring/saxpy.cu") == "starter saxpy\n");
  CHECK_FALSE(fs::exists(copy / "lessons/00-measuring/new.cu"));
  CHECK(fs::last_write_time(copy / "lessons/00-measuring/driver.cu") == untouched_time);
}

TEST_CASE("the course copy never overwrites a folder it did not make", "[submission]") {
  TempDir dir;
  make_course(dir.path() / "course");
  write_file(dir.path() / "precious/thesis.tex", "years of work\n");
  CHECK_THROWS_WITH(mirror_course(dir.path() / "course", dir.path() / "precious"), Catch::Contains("refusing"));
  CHECK(read_file(dir.path() / "precious/thesis.tex") == "years of work\n");
}

TEST_CASE_METHOD(OverlayFixture, "only the editable files are taken from a submission, the rest is reported",
                 "[submission]") {
  write_file(submission / "lessons/00-measuring/saxpy.cu", "student saxpy\n");
  write_file(submission / "lessons/00-measuring/driver.cu", "a student's driver\n");  // not editable
  write_file(submission / "lessons/00-measuring/sub/extra.cu", "starter extra\n");    // same as the starter
  write_file(submission / "notes.txt", "hello\n");
  write_file(submission / ".git/objects/ab/cdef", "blob\n");

  const OverlayReport report = overlay_submission(submission, copy, rubrics);
  CHECK(report.taken == std::vector<std::string>{"lessons/00-measuring/saxpy.cu"});
  CHECK(report.unchanged == std::vector<std::string>{"lessons/00-measuring/sub/extra.cu"});
  CHECK(report.kept_starter == std::vector<std::string>{"lessons/00-measuring/measure.cpp"});
  CHECK(report.rejected.empty());
  CHECK(report.ignored == std::vector<std::string>{".git/", "lessons/00-measuring/driver.cu", "notes.txt"});
  CHECK(read_file(copy / "lessons/00-measuring/saxpy.cu") == "student saxpy\n");
  CHECK(read_file(copy / "lessons/00-measuring/driver.cu") == "driver\n");
  CHECK(read_file(copy / "lessons/00-measuring/measure.cpp") == "starter measure\n");

  const auto lines = describe_overlay(report);
  CHECK(contains(lines, "ignored: 3 files"));
  CHECK(contains(lines, "e.g. .git/, lessons/00-measuring/driver.cu, notes.txt"));
  CHECK(contains(lines, "the starter's copy is graded: lessons/00-measuring/measure.cpp"));
}

TEST_CASE_METHOD(OverlayFixture, "a lesson graded alone also takes the editable files of the lessons it uses",
                 "[submission]") {
  write_file(course / "lessons/07-reductions/lesson.json", R"({"editable": ["block_sums.cuh"]})");
  write_file(course / "lessons/07-reductions/block_sums.cuh", "starter sums\n");
  mirror_course(course, copy);
  rubrics[0].uses = {"07-reductions"};
  write_file(submission / "lessons/07-reductions/block_sums.cuh", "student sums\n");
  write_file(submission / "lessons/00-measuring/saxpy.cu", "student saxpy\n");
  const OverlayReport report = overlay_submission(submission, copy, rubrics);
  CHECK(read_file(copy / "lessons/07-reductions/block_sums.cuh") == "student sums\n");
  CHECK(contains(report.taken, "lessons/07-reductions/block_sums.cuh"));
  CHECK(report.ignored.empty());
}

TEST_CASE_METHOD(OverlayFixture, "links in a submission are refused, whether the file or a folder on its way",
                 "[submission]") {
  write_file(dir.path() / "secret", "the grader's secret\n");

  fs::create_directories(submission / "lessons/00-measuring");
  fs::create_symlink(dir.path() / "secret", submission / "lessons/00-measuring/saxpy.cu");
  fs::create_directories(submission / "lessons/00-measuring/measure.cpp");  // a folder, not a file
  fs::create_directories(dir.path() / "elsewhere");
  write_file(dir.path() / "elsewhere/extra.cu", "from elsewhere\n");
  fs::create_directory_symlink(dir.path() / "elsewhere", submission / "lessons/00-measuring/sub");

  const OverlayReport report = overlay_submission(submission, copy, rubrics);
  CHECK(report.taken.empty());
  REQUIRE(report.rejected.size() == 3);
  CHECK(contains(report.rejected, "lessons/00-measuring/saxpy.cu: a symbolic link"));
  CHECK(contains(report.rejected, "lessons/00-measuring/measure.cpp: not a regular file"));
  CHECK(contains(report.rejected, "lessons/00-measuring/sub/extra.cu: under a symbolic link"));
  CHECK(read_file(copy / "lessons/00-measuring/saxpy.cu") == "starter saxpy\n");
  CHECK(read_file(copy / "lessons/00-measuring/sub/extra.cu") == "starter extra\n");
  CHECK(contains(describe_overlay(report), "rejected: lessons/00-measuring/saxpy.cu: a symbolic link"));
}

TEST_CASE("an editable path outside the lesson never reaches the overlay: it is a rubric error", "[submission]") {
  for (const char* editable : {"../../common/cuda_check.cpp", "/etc/passwd", "sub/../../x.cu"}) {
    INFO(editable);
    const std::string manifest = std::string(R"({"editable": [")") + editable + R"("], "rubric": "rubric.json"})";
    CHECK_THROWS_AS(parse_lesson_manifest(manifest, "lesson.json"), RubricError);
  }
}

TEST_CASE("copy_if_different replaces a link instead of writing through it", "[submission]") {
  TempDir dir;
  write_file(dir.path() / "target", "keep me\n");
  write_file(dir.path() / "new", "new\n");
  fs::create_symlink(dir.path() / "target", dir.path() / "link");
  CHECK(copy_if_different(dir.path() / "new", dir.path() / "link"));
  CHECK(read_file(dir.path() / "target") == "keep me\n");
  CHECK_FALSE(fs::is_symlink(dir.path() / "link"));
  CHECK(read_file(dir.path() / "link") == "new\n");
  CHECK_FALSE(copy_if_different(dir.path() / "new", dir.path() / "link"));
}
