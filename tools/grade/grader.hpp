// The whole grading run: check the inputs, build the track (or the submission over a copy of the
// course) lesson by lesson, grade each rubric item, write the outputs.
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>

namespace cudamatch::grade {

// Exit statuses of cudamatch-grade.
constexpr int kExitGraded = 0;     // graded, whatever the score
constexpr int kExitBelowFull = 1;  // graded, --require-full, and a lesson is below its maximum
constexpr int kExitBadInput = 2;   // bad arguments or a rubric error (outputs still written when grading ran)
// Nothing could be graded, or not completely: no course, no CMake/Ninja/nvcc, the course does not
// configure, no lesson compiled, or no CUDA device (outputs are still written, saying so).
constexpr int kExitCannotGrade = 3;

struct GradeOptions {
  std::string track = "student";
  std::optional<std::filesystem::path> submission;
  std::string lessons;  // "00,03,07-12"; empty: every lesson whose lesson.json names a rubric
  std::optional<std::filesystem::path> results;
  std::optional<std::filesystem::path> junit;
  double timeout_s = 300.0;
  bool sanitize = false;
  bool ncu = false;
  bool require_full = false;
  std::optional<std::filesystem::path> reference_build;
  std::filesystem::path course;
  std::optional<std::filesystem::path> build_dir;
  int jobs = 0;                         // 0: one per CPU
  int test_jobs = 1;                    // test processes at a time
  std::string sandbox_user = "nobody";  // a submission's build and runs, when the grader runs as root
  bool leaderboard = false;             // results.json carries Gradescope leaderboard entries
};

// Returns the exit status; says why on stderr (one line) when it is not kExitGraded.
int run_grader(const GradeOptions& options);

}  // namespace cudamatch::grade
