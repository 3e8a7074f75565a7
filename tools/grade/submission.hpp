// A student's submission laid over a copy of the course: only the files the lessons' manifests list as
// editable (Rubric::editable) are taken, each from DIR/lessons/<id>/<name> with the path built from that name;
// everything else in DIR is ignored and reported.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "rubric.hpp"

namespace cudamatch::grade {

struct OverlayReport {
  std::vector<std::string> taken;         // lessons/<id>/<name> replaced by the submission's
  std::vector<std::string> unchanged;     // the submission's copy equals the starter's
  std::vector<std::string> kept_starter;  // editable files the submission does not have
  std::vector<std::string> rejected;      // "lessons/<id>/<name>: why" (a link, not a regular file)
  std::vector<std::string> ignored;       // every other file of the submission, relative to it
};

OverlayReport overlay_submission(const std::filesystem::path& submission, const std::filesystem::path& course_copy,
                                 const std::vector<Rubric>& rubrics);

// The report as lines for people: "ignored: 3 files, e.g. notes.txt, ...".
std::vector<std::string> describe_overlay(const OverlayReport& report);

}  // namespace cudamatch::grade
