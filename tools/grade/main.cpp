// cudamatch-grade: the course's autograder (docs/grading.md).
#include <string>

#include "common/cli_parse.hpp"
#include "grader.hpp"

int main(int argc, char** argv) {
  using namespace cudamatch::grade;
  CLI::App app{
      "cudamatch-grade: grade the cudamatch lessons of a track or of a student's submission.\n"
      "It builds with CMake and runs the tests and drivers as child processes; see docs/grading.md."};
  GradeOptions options;
  std::string course = CUDAMATCH_GRADE_DEFAULT_COURSE, submission, results, junit, reference, build_dir;
  auto* track = app.add_option("--track", options.track, "The track to grade: student (lessons/) or solutions")
                    ->check(CLI::IsMember({"student", "solutions"}))
                    ->capture_default_str();
  app.add_option("--submission", submission,
                 "Grade DIR (the repository layout: DIR/lessons/<id>/<file>) over a clean copy of the course, as the "
                 "student track; only the files the lessons' lesson.json lists as editable are taken")
      ->option_text("DIR")
      ->excludes(track);
  app.add_option("--lessons", options.lessons,
                 "Lesson numbers, lists and ranges, e.g. 00,03,07-12 (default: every lesson "
                 "whose lesson.json names a rubric)");
  app.add_option("--results", results, "Write Gradescope's results.json to FILE")->option_text("FILE");
  app.add_option("--junit", junit, "Write JUnit XML to FILE")->option_text("FILE");
  app.add_option("--timeout", options.timeout_s, "Seconds per test case; driver, ncu and sanitizer runs get 4x")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  app.add_flag("--sanitize", options.sanitize, "Run the sanitizer items (compute-sanitizer memcheck and racecheck)");
  app.add_flag("--ncu", options.ncu, "Run the profiling items (Nsight Compute)");
  app.add_option("--reference-build", reference,
                 "A build of the solutions track (e.g. build/default): score performance against its drivers")
      ->option_text("DIR");
  app.add_option("--course", course, "The course's source tree (default: " + course + ")")->option_text("DIR");
  app.add_option("--build-dir", build_dir,
                 "Where to build (default: <course>/build/grade-<track>; with --submission a temporary directory, or "
                 "DIR with the course copied to DIR-course)")
      ->option_text("DIR");
  app.add_option("--jobs", options.jobs, "Parallel compile jobs (default: one per CPU)")->check(CLI::PositiveNumber);
  app.add_option("--test-jobs", options.test_jobs,
                 "Test cases (and the two sanitizer tools) run N at a time on the GPU; performance and ncu runs "
                 "always run alone")
      ->check(CLI::Range(1, 64))
      ->capture_default_str();
  app.add_flag("--require-full", options.require_full,
               "Exit with status 1 unless every graded lesson scores its full (non-zero) maximum (GitHub Classroom)");
  app.add_option("--sandbox-user", options.sandbox_user,
                 "When run as root: the user a submission is built and run as (it must not be able to read "
                 "the course's solutions/)")
      ->capture_default_str();
  app.add_flag("--leaderboard", options.leaderboard,
               "results.json carries Gradescope leaderboard entries: each performance item's measured ratio");
  app.footer(
      "Exit status: 0 graded; 1 graded, --require-full, and a lesson below its maximum; 2 bad arguments or a "
      "rubric error; 3 nothing could be graded, or not completely (no CUDA device, no lesson compiled, no "
      "toolchain): the outputs say why.");
  if (const int status = cudamatch::parse_command_line(app, argc, argv); status >= 0) return status;

  options.course = course;
  if (!submission.empty()) options.submission = submission;
  if (!results.empty()) options.results = results;
  if (!junit.empty()) options.junit = junit;
  if (!reference.empty()) options.reference_build = reference;
  if (!build_dir.empty()) options.build_dir = build_dir;
  return run_grader(options);
}
