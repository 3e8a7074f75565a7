// The grader's outputs: the terminal table, Gradescope's results.json and JUnit XML. All of them are
// written from the same GradeReport, also when lessons failed to build.
#pragma once

#include <filesystem>
#include <ostream>
#include <string>

#include <nlohmann/json.hpp>

#include "grade_report.hpp"

namespace cudamatch::grade {

// "passed: 4 of 4 test cases passed", "not run: no CUDA device: ..."
std::string item_headline(const ItemResult& item);

// What was graded, the score, each lesson's score and the notes, for people.
std::string summary_text(const GradeReport& report);

// One row per item (lesson, item, points, max, status, reason), a total per lesson and overall.
void print_table(std::ostream& out, const GradeReport& report);

// Gradescope's results.json: score, max_score, execution_time, output, and one test per item; items
// not run have score 0 and max_score 0, and their output says why.
// With `leaderboard`, also Gradescope's "leaderboard": one entry per performance item that measured
// a ratio, named "<lesson> <item id>", the larger the better.
nlohmann::json gradescope_results(const GradeReport& report, bool leaderboard = false);

// JUnit XML: a testsuite per lesson, a testcase per item (<failure> when failed, <skipped> when not run).
std::string junit_xml(const GradeReport& report);

// Writes `text` to `path` (creating its folder); throws std::runtime_error when it cannot.
void write_text_file(const std::filesystem::path& path, const std::string& text);

}  // namespace cudamatch::grade
