#include <cmath>

#include "outputs.hpp"
#include "text.hpp"

namespace cudamatch::grade {

namespace {

double rounded(double value) { return std::round(value * 1e4) / 1e4; }

}  // namespace

nlohmann::json gradescope_results(const GradeReport& report, bool leaderboard) {
  const Totals total = totals_of(report.lessons);
  nlohmann::json tests = nlohmann::json::array();
  for (const auto& lesson : report.lessons) {
    for (const auto& item : lesson.items) {
      std::string output = item_headline(item);
      if (!item.output.empty()) output += "\n\n" + item.output;
      tests.push_back({
          {"name", valid_utf8(lesson.lesson + " " + item.name)},
          {"score", rounded(item.score)},
          {"max_score", rounded(item.max_score)},
          // Gradescope shows a 0-point test by this status: an item not run is not a pass.
          {"status", item.status == ItemStatus::passed ? "passed" : "failed"},
          {"output", valid_utf8(output)},
          {"visibility", "visible"},
      });
    }
  }
  nlohmann::json results{
      {"score", rounded(total.score)},
      {"max_score", rounded(total.max_score)},
      {"execution_time", static_cast<long>(std::lround(report.seconds))},
      {"output", valid_utf8(summary_text(report))},
      {"tests", tests},
  };
  if (leaderboard) {
    nlohmann::json entries = nlohmann::json::array();
    for (const auto& lesson : report.lessons) {
      for (const auto& item : lesson.items) {
        if (!item.ratio) continue;
        entries.push_back(
            {{"name", lesson.lesson + " " + item.id}, {"value", rounded(*item.ratio)}, {"order", "desc"}});
      }
    }
    results["leaderboard"] = entries;
  }
  return results;
}

}  // namespace cudamatch::grade
