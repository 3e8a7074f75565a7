// A lesson's rubric, lessons/<id>/rubric.json: the graded items; the files a student may edit come
// from the lesson's manifest beside it (lesson_manifest.hpp). The format is fixed in docs/grading.md;
// every mistake in a rubric or in the manifest's grading fields is a RubricError naming the file and
// the item, before anything is built. A "note" (a string, for people) may go on the rubric and on
// any item; any other key that the format does not have is an error (a misspelt key must not pass).
#pragma once

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <variant>
#include <vector>

namespace cudamatch::grade {

struct RubricError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// kind "tests": the Catch2 test cases that `spec` selects, each run in its own process.
struct TestsCheck {
  std::string spec;
};

// kind "performance": `version`'s speed as a ratio against `baseline` (another row of the same run)
// or against the measured ceiling `ceiling`: exactly one of the two is set. Rows are named by their ids
// in the driver's results file ("v3", "padded"), never by the labels its table prints.
struct PerformanceCheck {
  std::string version;
  std::string baseline;
  std::string ceiling;
  double floor = 0.0;  // no points at r <= floor
  // With a ceiling: the floor is at least this version's share of the ceiling in the same run (the
  // baseline's speed earns nothing, e.g. a v3 that is v0).
  std::string floor_version;
  double full_at = 0.0;  // full points at r >= full_at
};

// kind "ncu": one metric of the first launch of `kernel`, alone or relative to `relative_to_kernel`.
struct NcuCheck {
  std::string kernel;
  std::string metric;
  std::string relative_to_kernel;  // empty: the limits are absolute
  std::optional<double> at_most;
  std::optional<double> at_least;
};

// kind "sass": strings that the SASS of the functions named like `function` must (not) contain.
struct SassCheck {
  std::string binary;  // "test" (bin/test-<id>) or "driver" (bin/<id>)
  std::string function;
  std::vector<std::string> contains;
  std::vector<std::string> absent;
};

// kind "sanitizer": compute-sanitizer memcheck and racecheck over the test cases `spec` selects.
struct SanitizerCheck {
  std::string spec;
};

// A physical limit on every row a performance item scores (the version and its baseline): a figure
// beyond it is a bug or a replay of earlier results, never a pass. Exactly one of `ceiling` and `row`.
struct Bound {
  // Bytes per second of input no faster than kNoise x this measured ceiling, times max(1, stride / 32)
  // when the algorithm may skip: it reads at least one 32-byte sector per `stride` bytes of text.
  std::string ceiling;
  std::string stride = "1";  // "1", "m" or "m+1" (m: the pattern length that ends the case id, "e-coli-m16")
  // A time no shorter than this row's (its id, same case) divided by kNoise, e.g. a vendor library's kernel.
  std::string row;
};

// How far a measurement may stray beyond its bound: run-to-run noise of the ceilings themselves.
constexpr double kNoise = 1.10;

using Check = std::variant<TestsCheck, PerformanceCheck, NcuCheck, SassCheck, SanitizerCheck>;

struct RubricItem {
  std::string id;
  std::string name;
  double points = 0.0;
  Check check;
  std::optional<std::vector<std::string>> driver_args;  // performance and ncu items: replaces the lesson's
};

// "tests", "performance", "ncu", "sass" or "sanitizer".
const char* kind_name(const Check& check);

struct Rubric {
  std::filesystem::path file;
  std::string lesson;
  std::vector<std::string> editable;  // relative to lessons/<lesson>/, checked safe to join to a path
  std::vector<std::string> uses;      // the manifest's: lessons whose editable files this one compiles too
  std::vector<std::string> driver_args;
  std::vector<Bound> bounds;  // required when the rubric has performance items
  std::vector<RubricItem> items;

  const std::vector<std::string>& driver_args_for(const RubricItem& item) const;
};

// Parses and checks a rubric's text; `file` names it in errors. "editable" is refused: it is the
// manifest's (a second list would drift from the one the build uses). Leaves `editable` empty.
Rubric parse_rubric(const std::string& text, const std::filesystem::path& file);

// Reads <lesson_dir>/lesson.json (load_lesson_manifest), then the rubric it names, and checks the rubric
// against the lesson: its "lesson" is the folder's name. `editable` is the manifest's.
Rubric load_rubric(const std::filesystem::path& lesson_dir);

}  // namespace cudamatch::grade
