// Configuring a course tree for one track and building one lesson's test and driver programs, so
// that a compile error costs only that lesson.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "catch_tests.hpp"
#include "process.hpp"
#include "toolchain.hpp"

namespace cudamatch::grade {

struct TrackBuild {
  std::filesystem::path source_dir;
  std::filesystem::path build_dir;
  std::string track;  // "student" or "solutions"
  int jobs = 1;
  Toolchain tools;
  ChildSetup child;  // CMake and the compilers run so confined
  // A submission's build: every file its compiles read must lie in one of `allowed_roots` (the copy,
  // the system's, the toolchain's and the libraries' folders), none in the course it was copied from.
  std::optional<std::filesystem::path> audit_course;
  std::vector<std::filesystem::path> allowed_roots;

  std::filesystem::path bin_dir() const { return build_dir / "bin"; }
};

// cmake -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUDAMATCH_TRACK=<track>, plus
// -DCMAKE_CUDA_ARCHITECTURES=$CUDAARCHS when that variable is set, and the nvcc and Ninja found when
// the build directory is new.
ProcessResult configure_track(const TrackBuild& build);

// The targets of lesson `lesson` in `track`: test.<id>.<track> when tests/<id>/ has sources and
// driver.<id>.<track> when lessons/<id>/driver.cu exists (see cmake/Lessons.cmake).
std::vector<std::string> lesson_targets(const std::filesystem::path& course, const std::string& lesson,
                                        const std::string& track);

struct LessonBuildResult {
  bool ok = false;
  std::string errors;  // the compiler's first error lines when it failed
};

// Builds `targets` of `lesson`; with build.audit_course, a build that read a file it must not reach
// (an #include of the reference solution, say) fails, naming the files. The audit covers the objects
// of `lesson` and of the lessons it `uses` (their libraries are compiled into its programs).
LessonBuildResult build_lesson(const TrackBuild& build, const std::string& lesson,
                               const std::vector<std::string>& targets, const std::vector<std::string>& uses = {});

// The first errors of a Ninja build log: from the first "FAILED:" on, without the failed command
// lines and progress lines, at most `max_lines` lines and `max_chars` characters; paths under
// `source_dir` are shown relative to it.
std::string first_error_lines(const std::string& log, const std::string& source_dir, std::size_t max_lines,
                              std::size_t max_chars);

}  // namespace cudamatch::grade
