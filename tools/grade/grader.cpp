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
#include "sandbox.hpp"
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
    if (mkdtemp(pattern.data()) == nullptr)
      throw Refusal{kExitCannotGrade, "cannot create a temporary directory in " + pattern};
    path_ = pattern;
    // The sandbox user (sandbox.hpp) must reach the copy, the build and its private folder inside.
    fs::permissions(path_,
                    fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read | fs::perms::others_exec,
                    fs::perm_options::add);
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

void say(const std::string& message) {
  std::cerr << "cudamatch-grade: " << elapsed_stamp() << " " << message << std::endl;
}

std::vector<Rubric> load_rubrics(const fs::path& course, const std::string& lessons) {
  std::vector<Rubric> rubrics;
  try {
    for (const auto& lesson : select_lessons(course_lessons(course), lessons))
      rubrics.push_back(load_rubric(lesson.dir));
  } catch (const LessonSelectionError& e) {
    throw Refusal{kExitBadInput, e.what()};
  } catch (const RubricError& e) {
    throw Refusal{kExitBadInput, std::string("rubric error: ") + e.what()};
  }
  return rubrics;
}

void check_inputs(const GradeOptions& options, const fs::path& course) {
  if (!fs::is_regular_file(course / "CMakeLists.txt") || !fs::is_regular_file(course / "lessons" / "course.json")) {
    throw Refusal{kExitCannotGrade, "no cudamatch course at " + course.string() + " (--course)"};
  }
  if (options.submission && !fs::is_directory(*options.submission)) {
    throw Refusal{kExitBadInput, "--submission " + options.submission->string() + " is not a directory"};
  }
  if (options.reference_build && !fs::is_directory(*options.reference_build / "bin")) {
    throw Refusal{kExitBadInput, "--reference-build " + options.reference_build->string() + " has no bin/ folder"};
  }
}

// The copy a submission is built in: the course without solutions/ (course_copy.cpp), the
// submission's editable files over it. Laid anew before each lesson's build, so that what code run
// for one lesson wrote into it cannot reach the next lesson's compile.
struct SubmissionCopy {
  fs::path course;
  fs::path submission;
  fs::path copy;

  OverlayReport lay(const std::vector<Rubric>& rubrics) const {
    try {
      mirror_course(course, copy);
    } catch (const CourseCopyError& e) {
      throw Refusal{kExitBadInput, e.what()};
    }
    return overlay_submission(submission, copy, rubrics);
  }
};

std::vector<fs::path> split_path_list(const char* list) {
  std::vector<fs::path> paths;
  std::string rest = list != nullptr ? list : "";
  for (std::size_t at; !rest.empty(); rest = at == std::string::npos ? "" : rest.substr(at + 1)) {
    at = rest.find(':');
    const std::string part = rest.substr(0, at);
    if (!part.empty() && fs::path(part).is_absolute()) paths.push_back(fs::path(part).lexically_normal());
  }
  return paths;
}

// Where a submission's compiles may read from: its copy, the system's and the toolchain's folders,
// and the libraries' `prefixes` (CMAKE_PREFIX_PATH).
std::vector<fs::path> allowed_build_roots(const TrackBuild& build, const std::vector<fs::path>& prefixes) {
  std::vector<fs::path> roots{build.source_dir, "/usr", "/opt", build.tools.nvcc.parent_path().parent_path()};
  roots.insert(roots.end(), prefixes.begin(), prefixes.end());
  return roots;
}

std::vector<std::string> as_strings(const std::vector<fs::path>& paths) {
  std::vector<std::string> strings;
  for (const auto& path : paths) strings.push_back(path.string());
  return strings;
}

// Confines every child (sandbox.hpp): the environment always; for a submission, when the grader runs
// as root, the sandbox user too, who owns the build and the private folder but not the copy, and must
// be able to use what the build needs and unable to read the reference solutions.
void confine(TrackBuild& build, const GradeOptions& options, const fs::path& course, const fs::path& private_dir,
             const Environment& extra, GradeReport& report) {
  build.child.environment = child_environment(private_dir, extra);
  fs::create_directories(build.build_dir);
  if (!options.submission) return;
  try {
    build.child.user = sandbox_user(options.sandbox_user);
  } catch (const std::exception& e) {
    throw Refusal{kExitBadInput, e.what()};
  }
  const std::vector<fs::path> prefixes = split_path_list(std::getenv("CMAKE_PREFIX_PATH"));
  build.audit_course = course;
  build.allowed_roots = allowed_build_roots(build, prefixes);
  const fs::path solutions = course / "solutions";
  if (!build.child.user) {
    if (fs::exists(solutions)) {
      report.notes.push_back("the submission ran as this grader's user, who can read " + solutions.string() +
                             ": run cudamatch-grade as root to run submissions as an unprivileged user");
    }
    return;
  }
  const UserIdentity& user = *build.child.user;
  give_tree(build.build_dir, user);
  give_tree(private_dir, user);
  std::vector<fs::path> readable{build.source_dir, build.tools.cmake, build.tools.ninja, build.tools.nvcc};
  for (const auto& prefix : prefixes) {
    // The system's folders are readable by convention and too large to walk (some of their own
    // subfolders are rightly closed); staged libraries (e.g. .deps/root/usr) are checked.
    if (fs::exists(prefix) && !is_within(prefix, "/usr") && !is_within(prefix, "/opt")) {
      readable.push_back(prefix);
    }
  }
  for (const auto& [name, value] : extra) {
    if (name == "CUDAMATCH_DATA") readable.emplace_back(value);
  }
  const auto missing = inaccessible(build.child, readable, {build.build_dir, private_dir / "tmp"});
  if (!missing.empty()) {
    throw Refusal{kExitCannotGrade, "cannot grade: submissions run as '" + user.name + "', who cannot use " +
                                        join(missing, ", ") + " (make it readable to all, or --sandbox-user)"};
  }
  // The reference in any form: its sources, the history that holds them, builds of the solutions.
  std::vector<fs::path> reference;
  for (const char* place : {"solutions", ".git", "build"}) {
    const fs::path path = course / place;
    if (fs::exists(path) && !is_within(build.build_dir, path)) reference.push_back(path);
  }
  if (const auto exposed = readable_inside(build.child, reference); !exposed.empty()) {
    throw Refusal{kExitCannotGrade, "cannot grade: submissions run as '" + user.name + "', who can read " +
                                        exposed.front() + ": make " + join(as_strings(reference), ", ") +
                                        " unreadable to others (chmod -R o-rwx) or grade a course without them"};
  }
  report.notes.push_back("the submission was built and run as '" + user.name + "'");
}

// Where the sources and the build go. A submission is laid over a copy of the course (in `temporary`
// unless --build-dir says where), and what was taken from it goes into the report's notes.
TrackBuild plan_build(const GradeOptions& options, const fs::path& course, const std::vector<Rubric>& rubrics,
                      std::optional<TemporaryDirectory>& temporary, std::optional<SubmissionCopy>& copy,
                      GradeReport& report) {
  TrackBuild build;
  try {
    build.tools = find_toolchain();
  } catch (const std::exception& e) {
    throw Refusal{kExitCannotGrade, std::string("cannot grade: ") + e.what()};
  }
  build.track = options.submission ? "student" : options.track;
  build.jobs = options.jobs > 0 ? options.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  Environment extra;
  if (!options.submission) {
    build.source_dir = course;
    build.build_dir =
        options.build_dir ? absolute_dir(*options.build_dir) : course / "build" / ("grade-" + build.track);
    report.graded = "the " + build.track + " track of " + course.string();
    confine(build, options, course, build.build_dir / "grade-sandbox", extra, report);
    return build;
  }
  const fs::path submission = absolute_dir(*options.submission);
  fs::path private_dir;
  if (options.build_dir) {
    build.build_dir = absolute_dir(*options.build_dir);
    build.source_dir = build.build_dir.parent_path() / (build.build_dir.filename().string() + "-course");
    private_dir = build.build_dir.parent_path() / (build.build_dir.filename().string() + "-sandbox");
  } else {
    temporary.emplace();
    build.build_dir = temporary->path() / "build";
    build.source_dir = temporary->path() / "course";
    private_dir = temporary->path() / "sandbox";
  }
  say("copying the course to " + build.source_dir.string() + " and laying the submission over it");
  copy = SubmissionCopy{course, submission, build.source_dir};
  report.graded =
      "the submission " + submission.string() + " (student track, over a clean copy of " + course.string() + ")";
  for (const auto& line : describe_overlay(copy->lay(rubrics))) report.notes.push_back(line);
  // The copy has no corpora (datasets/cache is not copied): the drivers read the course's.
  if (std::getenv("CUDAMATCH_DATA") == nullptr && fs::is_directory(course / "datasets" / "cache")) {
    extra.emplace_back("CUDAMATCH_DATA", (course / "datasets" / "cache").string());
  }
  confine(build, options, course, private_dir, extra, report);
  return build;
}

void configure(const TrackBuild& build) {
  say("configuring " + build.source_dir.string() + " in " + build.build_dir.string() + " (track " + build.track + ")");
  const ProcessResult configured = configure_track(build);
  if (configured.exited_with(0)) return;
  const std::string errors = first_error_lines(configured.output, build.source_dir.string(), 20, 2000);
  std::cerr << errors << '\n';
  throw Refusal{kExitCannotGrade, "cannot grade: CMake could not configure the course (" + configured.describe() +
                                      "): " + trim(errors.substr(0, errors.find('\n')))};
}

void write_outputs(const GradeOptions& options, const GradeReport& report) {
  print_table(std::cout, report);
  try {
    if (options.results)
      write_text_file(*options.results, gradescope_results(report, options.leaderboard).dump(2) + "\n");
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
  const unsigned long long started_ticks = process_start_ticks();
  const fs::path course = absolute_dir(options.course);
  check_inputs(options, course);
  const std::vector<Rubric> rubrics = load_rubrics(course, options.lessons);
  GradeReport report;
  std::optional<TemporaryDirectory> temporary;
  std::optional<SubmissionCopy> copy;
  const TrackBuild build = plan_build(options, course, rubrics, temporary, copy, report);

  Machine machine;
  machine.tools = build.tools;
  machine.child = build.child;
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
  // Made anew: an earlier submission's code (the sandbox user owns the build) may have left a link here.
  const fs::path scratch = build.build_dir / "grade-scratch";
  fs::remove_all(scratch);
  fs::create_directories(scratch);
  if (build.child.user) give_tree(scratch, *build.child.user);

  std::vector<std::string> rubric_errors;
  std::string first_build_error;
  std::size_t lessons_built = 0;
  for (const auto& rubric : rubrics) {
    LessonContext context{rubric, build.bin_dir(), scratch, settings, machine, {}, {}, {}, {}, {}};
    progress(context, "building");
    if (copy) copy->lay(rubrics);
    const LessonBuildResult built =
        build_lesson(build, rubric.lesson, lesson_targets(build.source_dir, rubric.lesson, build.track), rubric.uses);
    report.lessons.push_back(grade_lesson(context, built));
    if (build.child.user) {
      if (const std::size_t left = kill_leftovers(*build.child.user, started_ticks); left > 0) {
        report.lessons.back().notes.push_back("killed " + std::to_string(left) +
                                              " process(es) the lesson's code left running");
      }
    }
    lessons_built += built.ok ? 1 : 0;
    if (!built.ok && first_build_error.empty())
      first_build_error = trim(built.errors.substr(0, built.errors.find('\n')));
    rubric_errors.insert(rubric_errors.end(), context.rubric_errors.begin(), context.rubric_errors.end());
  }
  for (const auto& error : rubric_errors) report.notes.push_back("rubric error: " + error);
  report.gpu = machine.gpu ? gpu.description : machine.no_gpu_reason;
  report.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (lessons_built == 0) {
    report.incomplete = "no lesson compiled, nothing could be graded (first error: " + first_build_error + ")";
  } else if (!machine.gpu) {
    report.incomplete = machine.no_gpu_reason + ": the GPU items could not run, the score covers the host items only";
  }
  write_outputs(options, report);

  if (!rubric_errors.empty()) throw Refusal{kExitBadInput, "rubric error: " + rubric_errors.front()};
  if (!report.incomplete.empty()) throw Refusal{kExitCannotGrade, "not a grade: " + report.incomplete};
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
