// Small text helpers shared by the grader's reports.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace cudamatch::grade {

// The last `max_lines` lines of `text`, at most `max_chars` characters (cut at a line start).
std::string last_lines(std::string_view text, std::size_t max_lines, std::size_t max_chars);

// `text` with every byte that is not part of valid UTF-8 replaced by '?': test output may hold any
// bytes, and JSON and XML writers must not be handed invalid text.
std::string valid_utf8(std::string_view text);

// A number with at most `decimals` decimals, trailing zeros dropped ("4", "0.5", "3.25").
std::string format_number(double value, int decimals = 2);

std::string join(const std::vector<std::string>& parts, std::string_view separator);

std::string trim(std::string_view text);

// "[ 123 s]": the seconds since the first call, which the grader makes as it starts; progress lines
// carry it so that a slow item shows in the log.
std::string elapsed_stamp();

}  // namespace cudamatch::grade
