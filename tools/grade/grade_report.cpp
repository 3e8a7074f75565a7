#include "grade_report.hpp"

#include <algorithm>

namespace cudamatch::grade {

const char* status_name(ItemStatus status) {
  switch (status) {
    case ItemStatus::passed:
      return "passed";
    case ItemStatus::failed:
      return "failed";
    case ItemStatus::not_run:
      return "not run";
  }
  return "?";
}

ItemResult scored_item(const RubricItem& item, double fraction, std::string reason, std::string output) {
  ItemResult result;
  result.id = item.id;
  result.name = item.name;
  result.kind = kind_name(item.check);
  result.points = item.points;
  fraction = std::clamp(fraction, 0.0, 1.0);
  result.score = item.points * fraction;
  result.max_score = item.points;
  result.status = fraction >= 1.0 ? ItemStatus::passed : ItemStatus::failed;
  result.reason = std::move(reason);
  result.output = std::move(output);
  return result;
}

ItemResult failed_item(const RubricItem& item, std::string reason, std::string output) {
  return scored_item(item, 0.0, std::move(reason), std::move(output));
}

ItemResult not_run_item(const RubricItem& item, std::string reason, std::string output) {
  ItemResult result = scored_item(item, 0.0, std::move(reason), std::move(output));
  result.max_score = 0.0;
  result.status = ItemStatus::not_run;
  return result;
}

Totals totals_of(const LessonResult& lesson) {
  Totals totals;
  for (const auto& item : lesson.items) {
    totals.score += item.score;
    totals.max_score += item.max_score;
    totals.passed += item.status == ItemStatus::passed;
    totals.failed += item.status == ItemStatus::failed;
    totals.not_run += item.status == ItemStatus::not_run;
  }
  return totals;
}

Totals totals_of(const std::vector<LessonResult>& lessons) {
  Totals totals;
  for (const auto& lesson : lessons) {
    const Totals one = totals_of(lesson);
    totals.score += one.score;
    totals.max_score += one.max_score;
    totals.passed += one.passed;
    totals.failed += one.failed;
    totals.not_run += one.not_run;
  }
  return totals;
}

}  // namespace cudamatch::grade
