// The ids of the rows and cases of a driver's results file (common/results_json.hpp): what the
// autograder's rubrics and the docs' figures name rows by. Header-only: the grader checks rubrics with it
// without linking the course's code.
#pragma once

#include <algorithm>
#include <string>

namespace cudamatch {

// Whether `text` can be a row's or a case's id: 1 to 64 characters of [a-z0-9_-].
inline bool is_result_id(const std::string& text) {
  return !text.empty() && text.size() <= 64 && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  });
}

}  // namespace cudamatch
