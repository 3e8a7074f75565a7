// What grading produced: per lesson, per rubric item, the points earned and the points that count,
// and the totals. Items that did not run (no GPU, no ncu, no --sanitize) count for nothing either way.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "rubric.hpp"

namespace cudamatch::grade {

enum class ItemStatus { passed, failed, not_run };

const char* status_name(ItemStatus status);  // "passed", "failed", "not run"

struct ItemResult {
  std::string id;
  std::string name;
  std::string kind;
  double points = 0.0;  // the rubric's
  double score = 0.0;
  double max_score = 0.0;  // what counts: the points, less what did not run
  ItemStatus status = ItemStatus::failed;
  std::string reason;           // one line
  std::string output;           // the evidence: test output, compiler errors, measurements
  std::optional<double> ratio;  // performance items: the ratio measured (GradeOptions::leaderboard)
};

// fraction of the item's points (clamped to [0, 1]); passed only at full points.
ItemResult scored_item(const RubricItem& item, double fraction, std::string reason, std::string output = "");
ItemResult failed_item(const RubricItem& item, std::string reason, std::string output = "");
ItemResult not_run_item(const RubricItem& item, std::string reason, std::string output = "");

struct LessonResult {
  std::string lesson;
  std::vector<std::string> notes;  // build failures, submission files kept or rejected
  std::vector<ItemResult> items;
};

struct Totals {
  double score = 0.0;
  double max_score = 0.0;
  int passed = 0;
  int failed = 0;
  int not_run = 0;
};

Totals totals_of(const LessonResult& lesson);
Totals totals_of(const std::vector<LessonResult>& lessons);

struct GradeReport {
  std::string graded;      // what was graded, e.g. "the solutions track of /course"
  std::string incomplete;  // why the score is not a grade (no GPU, nothing built); empty when it is
  std::string gpu;         // the GPU, or why there is none
  std::vector<std::string> notes;
  std::vector<LessonResult> lessons;
  double seconds = 0.0;
};

}  // namespace cudamatch::grade
