#include "grader.hpp"

#include <stdlib.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "course_copy.hpp"
#include "items.hpp"
#include "lesson_grader.hpp"
#include "lessons.hpp"
#include "outputs.hpp"
#include "submission.hpp"
#include "text.hpp"

namespace cudamatch::grade {

namespace fs = std::filesystem;

namespace {

struct Refusal {
  int status;
  std::string message;
};

// A fresh folder under $TMPDIR, removed with everything in it when grading ends.
class TemporaryDirectory {
 public:
  TemporaryDirectory() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp != nullptr && tmp[0] != '\0' ? tmp : "/tmp") + "/cudamatch-grade-XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) throw Refusal{kExitCannotGrade, "cannot create a temporary directory in " + pattern};
    path_ = pattern;
  }
  ~TemporaryDirectory() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  TemporaryDirectory(const TemporaryDirectory&) = delete;
  TemporaryDirectory& operator=(const TemporaryDirectory&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

fs::path absolute_dir(const fs::path& path) {
  fs::path absolute = fs::absolute(path).lexically_normal();
  return absolute.filename().empty() ? absolute.parent_path() : absolute;
}

void say(const std::string& message) { std::cerr << "cudamatch-grade: " << elapsed_stamp() << " " << message << std::endl; }

std::vector<Rubric> load_rubrics(const fs::path& course, const std::string& lessons) {
  std::vector<Rubric> rubrics;
  try {
    for (const auto& lesson : select_lessons(course_lessons(course), lessons)) rubrics.push_back(load_rubric(lesson.dir));
  } catch (const LessonSelectionError& e) {
    throw Refusal{kExitBadInput, e.what()};
  } catch (const RubricError& e) {
    throw Refusal{kExitBadInput, std::string("rubric error: ") + e.what()};
  }
  return rubrics;
}

void check_inputs(const GradeOptions& options, const fs::path& course) {
  if (!fs::is_regular_file(course / "CMakeLists.txt") || !fs::is_directory(course / "lessons")) {
    throw Refusal{kExitCannotGrade, "no cudamatch course at " + course.string() + " (--course)"};
  }
  if (options.submission && !fs::is_directory(*options.submission)) {
    throw Refusal{kExitBadInput, "--submission " + options.submission->string() + " is not a directory"};
  }
  if (options.reference_build && !fs::is_directory(*options.reference_build / "bin")) {
    throw Refusal{kExitBadInput, "--reference-build " + options.reference_build->string() + " has no bin/ folder"};
  }
}

// Where the sources and the build go. A submission is laid over a copy of the course (in `temporary`
// unless --build-dir says where), and what was taken from it goes into the report's notes.
TrackBuild plan_build(const GradeOptions& options, const fs::path& course, const std::vector<Rubric>& rubrics,
                      std::optional<TemporaryDirectory>& temporary, GradeReport& report) {
  TrackBuild build;
  try {
    build.tools = find_toolchain();
  } catch (const std::exception& e) {
    throw Refusal{kExitCannotGrade, std::string("cannot grade: ") + e.what()};
  }
  build.track = options.submission ? "student" : options.track;
  build.jobs = options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  if (!options.submission) {
    build.source_dir = course;
    build.build_dir = options.build_dir ? absolute_dir(*options.build_dir) : course / "build" / ("grade-" + build.track);
    report.graded = "the " + build.track + " track of " + course.string();
    return build;
  }
  const fs::path submission = absolute_dir(*options.submission);
  if (options.build_dir) {
    build.build_dir = absolute_dir(*options.build_dir);
    build.source_dir = build.build_dir.parent_path() / (build.build_dir.filename().string() + "-course");
  } else {
    temporary.emplace();
    build.build_dir = temporary->path() / "build";
    build.source_dir = temporary->path() / "course";
  }
  say("copying the course to " + build.source_dir.string() + " and laying the submission over it");
  try {
    mirror_course(course, build.source_dir);
  } catch (const CourseCopyError& e) {
    throw Refusal{kExitBadInput, e.what()};
  }
  report.graded = "the submission " + submission.string() + " (student track, over a clean copy of " + course.string() + ")";
  for (const auto& line : describe_overlay(overlay_submission(submission, build.source_dir, rubrics))) {
    report.notes.push_back(line);
  }
  // The copy has no corpora (datasets/cache is not copied): the drivers read the course's.
  if (std::getenv("CUDAMATCH_DATA") == nullptr && fs::is_directory(course / "datasets" / "cache")) {
    build.environment.emplace_back("CUDAMATCH_DATA", (course / "datasets" / "cache").string());
  }
  return build;
}

void configure(const TrackBuild& build) {
  say("configuring " + build.source_dir.string() + " in " + build.build_dir.string() + " (track " + build.track + ")");
  const ProcessResult configured = configure_track(build);
  if (configured.exited_with(0)) return;
  const std::string errors = first_error_lines(configured.output, build.source_dir.string(), 20, 2000);
  std::cerr << errors << '\n';
  throw Refusal{kExitCannotGrade, "cannot grade: CMake could not configure the course (" + configured.describe() + "): " +
                                      trim(errors.substr(0, errors.find('\n')))};
}

void write_outputs(const GradeOptions& options, const GradeReport& report) {
  print_table(std::cout, report);
  try {
    if (options.results) write_text_file(*options.results, gradescope_results(report).dump(2) + "\n");
    if (options.junit) write_text_file(*options.junit, junit_xml(report));
  } catch (const std::exception& e) {
    throw Refusal{kExitCannotGrade, e.what()};
  }
}

// With --require-full, every lesson must score its maximum, and that maximum must not be 0.
int require_full(const GradeReport& report) {
  for (const auto& lesson : report.lessons) {
    const Totals total = totals_of(lesson);
    if (total.max_score <= 0 || total.score < total.max_score - 1e-9) {
      say("--require-full: " + lesson.lesson + " scored " + format_number(total.score) + " of " +
          format_number(total.max_score) + (total.max_score <= 0 ? " (nothing could be graded here)" : ""));
      return kExitBelowFull;
    }
  }
  return kExitGraded;
}

int grade(const GradeOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const fs::path course = absolute_dir(options.course);
  check_inputs(options, course);
  const std::vector<Rubric> rubrics = load_rubrics(course, options.lessons);
  GradeReport report;
  std::optional<TemporaryDirectory> temporary;
  const TrackBuild build = plan_build(options, course, rubrics, temporary, report);

  Machine machine;
  machine.tools = build.tools;
  machine.child_environment = build.environment;
  const GpuProbe gpu = probe_gpu();
  machine.gpu = gpu.present;
  machine.no_gpu_reason = gpu.present ? "" : "no CUDA device: " + gpu.description;
  configure(build);

  GradeSettings settings;
  settings.timeout_s = options.timeout_s;
  settings.test_jobs = static_cast<std::size_t>(options.test_jobs);
  settings.sanitize = options.sanitize;
  settings.ncu = options.ncu;
  if (options.reference_build) settings.reference_bin = absolute_dir(*options.reference_build) / "bin";
  const fs::path scratch = build.build_dir / "grade-scratch";
  fs::create_directories(scratch);

  std::vector<std::string> rubric_errors;
  for (const auto& rubric : rubrics) {
    LessonContext context{rubric, build.bin_dir(), scratch, settings, machine, {}, {}, {}, {}, {}};
    progress(context, "building");
    const LessonBuildResult built = build_lesson(build, lesson_targets(build.source_dir, rubric.lesson, build.track));
    report.lessons.push_back(grade_lesson(context, built));
    rubric_errors.insert(rubric_errors.end(), context.rubric_errors.begin(), context.rubric_errors.end());
  }
  for (const auto& error : rubric_errors) report.notes.push_back("rubric error: " + error);
  report.gpu = machine.gpu ? gpu.description : machine.no_gpu_reason;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  write_outputs(options, report);

  if (!rubric_errors.empty()) throw Refusal{kExitBadInput, "rubric error: " + rubric_errors.front()};
  return options.require_full ? require_full(report) : kExitGraded;
}

}  // namespace

int run_grader(const GradeOptions& options) {
  try {
    return grade(options);
  } catch (const Refusal& refusal) {
    say(refusal.message);
    return refusal.status;
  } catch (const std::exception& e) {
    say(std::string("cannot grade: ") + e.what());
    return kExitCannotGrade;
  }
}

}  // namespace cudamatch::grade
