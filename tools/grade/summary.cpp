#include "outputs.hpp"

#include <fstream>
#include <stdexcept>

#include "text.hpp"

namespace cudamatch::grade {

std::string item_headline(const ItemResult& item) {
  return std::string(status_name(item.status)) + (item.reason.empty() ? "" : ": " + item.reason);
}

std::string summary_text(const GradeReport& report) {
  const Totals total = totals_of(report.lessons);
  std::string text = report.incomplete.empty() ? "" : "NOT A GRADE: " + report.incomplete + "\n";
  text += "cudamatch-grade: " + report.graded + "\nGPU: " + report.gpu + "\n";
  text += "score: " + format_number(total.score) + " of " + format_number(total.max_score) +
          " (items: " + std::to_string(total.passed) + " passed, " + std::to_string(total.failed) + " failed, " +
          std::to_string(total.not_run) + " not run, which do not count)\n";
  for (const auto& lesson : report.lessons) {
    const Totals one = totals_of(lesson);
    text += "  " + lesson.lesson + ": " + format_number(one.score) + " of " + format_number(one.max_score) +
            (one.not_run > 0 ? " (" + std::to_string(one.not_run) + " not run)" : "") + "\n";
    for (const auto& note : lesson.notes) text += "    " + note + "\n";
  }
  for (const auto& note : report.notes) text += note + "\n";
  return text;
}

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

}  // namespace cudamatch::grade
