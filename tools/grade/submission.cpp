#include "submission.hpp"

#include <algorithm>
#include <set>

#include "course_copy.hpp"
#include "lesson_manifest.hpp"
#include "text.hpp"

namespace cudamatch::grade {

namespace fs = std::filesystem;

namespace {

// Why the submission's `relative` path may not be taken ("" when it may): neither the file nor any
// folder on the way to it may be a link (a link could point anywhere on the grading machine).
std::string refusal(const fs::path& submission, const fs::path& relative) {
  fs::path path = submission;
  std::error_code error;
  for (const auto& part : relative) {
    path /= part;
    const auto status = fs::symlink_status(path, error);
    if (fs::is_symlink(status)) return path == submission / relative ? "a symbolic link" : "under a symbolic link";
    if (!fs::exists(status)) return "";
  }
  return fs::is_regular_file(fs::symlink_status(path, error)) ? "" : "not a regular file";
}

std::string examples(const std::vector<std::string>& paths, std::size_t count) {
  std::vector<std::string> some(paths.begin(),
                                paths.begin() + static_cast<std::ptrdiff_t>(std::min(count, paths.size())));
  return join(some, ", ") + (paths.size() > count ? ", ..." : "");
}

}  // namespace

OverlayReport overlay_submission(const fs::path& submission, const fs::path& course_copy,
                                 const std::vector<Rubric>& rubrics) {
  OverlayReport report;
  // The graded lessons' editable files, and those of the lessons they use (lesson 11 compiles lesson
  // 07's block_sums.cuh: graded alone, it still runs on the student's, not on the starter's).
  std::vector<std::pair<std::string, std::string>> editable;  // lesson, file
  for (const auto& rubric : rubrics) {
    for (const auto& name : rubric.editable) editable.emplace_back(rubric.lesson, name);
    for (const auto& used : rubric.uses) {
      for (const auto& name : load_lesson_manifest(course_copy / "lessons" / used).editable) {
        editable.emplace_back(used, name);
      }
    }
  }
  std::set<fs::path> considered;
  for (const auto& [lesson, name] : editable) {
    const fs::path relative = fs::path("lessons") / lesson / name;  // from lesson.json, never from DIR
    if (!considered.insert(relative).second) continue;
    const std::string why_not = refusal(submission, relative);
    std::error_code error;
    if (!why_not.empty()) {
      report.rejected.push_back(relative.generic_string() + ": " + why_not + ", the starter's copy is kept");
    } else if (!fs::exists(fs::symlink_status(submission / relative, error))) {
      report.kept_starter.push_back(relative.generic_string());
    } else if (copy_if_different(submission / relative, course_copy / relative)) {
      report.taken.push_back(relative.generic_string());
    } else {
      report.unchanged.push_back(relative.generic_string());
    }
  }
  for (auto it = fs::recursive_directory_iterator(submission); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path relative = it->path().lexically_relative(submission);
    if (it->path().filename() == ".git" && it->is_directory()) {
      report.ignored.push_back(relative.generic_string() + "/");  // one entry for the whole clone
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_directory() && !it->is_symlink()) continue;
    if (considered.count(relative) == 0) report.ignored.push_back(relative.generic_string());
  }
  std::sort(report.ignored.begin(), report.ignored.end());
  return report;
}

std::vector<std::string> describe_overlay(const OverlayReport& report) {
  std::vector<std::string> lines;
  if (!report.taken.empty()) lines.push_back("taken from the submission: " + join(report.taken, ", "));
  if (!report.unchanged.empty()) lines.push_back("same as the starter: " + join(report.unchanged, ", "));
  if (!report.kept_starter.empty()) {
    lines.push_back("not in the submission, the starter's copy is graded: " + join(report.kept_starter, ", "));
  }
  for (const auto& rejected : report.rejected) lines.push_back("rejected: " + rejected);
  if (!report.ignored.empty()) {
    lines.push_back("ignored: " + std::to_string(report.ignored.size()) +
                    (report.ignored.size() == 1 ? " file" : " files") +
                    " (only the lessons' editable files are taken), e.g. " + examples(report.ignored, 5));
  }
  return lines;
}

}  // namespace cudamatch::grade
