#include <algorithm>
#include <iomanip>

#include "outputs.hpp"
#include "text.hpp"

namespace cudamatch::grade {

namespace {

constexpr std::size_t kItemWidth = 44;
constexpr std::size_t kReasonWidth = 100;

std::string cut(const std::string& text, std::size_t width) {
  std::string line = text.substr(0, text.find('\n'));
  return line.size() <= width ? line : line.substr(0, width - 3) + "...";
}

}  // namespace

void print_table(std::ostream& out, const GradeReport& report) {
  std::size_t lesson_width = 6;
  for (const auto& lesson : report.lessons) lesson_width = std::max(lesson_width, lesson.lesson.size());
  auto row = [&](const std::string& lesson, const std::string& item, const std::string& points, const std::string& max,
                 const std::string& status, const std::string& reason) {
    out << std::left << std::setw(static_cast<int>(lesson_width)) << lesson << "  " << std::setw(kItemWidth)
        << cut(item, kItemWidth) << "  " << std::right << std::setw(6) << points << "  " << std::setw(6) << max << "  "
        << std::left << std::setw(7) << status << "  " << cut(reason, kReasonWidth) << '\n';
  };
  out << summary_text(report) << '\n';
  row("lesson", "item", "points", "max", "status", "reason");
  for (const auto& lesson : report.lessons) {
    for (const auto& item : lesson.items) {
      row(lesson.lesson, item.name, format_number(item.score), format_number(item.max_score), status_name(item.status),
          item.reason);
    }
    const Totals total = totals_of(lesson);
    row(lesson.lesson, "(lesson total)", format_number(total.score), format_number(total.max_score), "", "");
  }
  const Totals total = totals_of(report.lessons);
  row("total", "", format_number(total.score), format_number(total.max_score), "",
      total.not_run > 0 ? "not run: " + std::to_string(total.not_run) + " of the items (they do not count)" : "");
}

}  // namespace cudamatch::grade
