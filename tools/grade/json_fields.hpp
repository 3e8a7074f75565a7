// Reading the course's JSON files (rubric.json, lesson.json): the fields of one object, each checked
// for its type, with errors that say which file, which item and which key. A mistake is a RubricError:
// the grader refuses to grade (exit 2) before anything is built.
#pragma once

#include <filesystem>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "rubric.hpp"

namespace cudamatch::grade {

// The JSON document in `text`; `file` names it in errors.
nlohmann::json parse_json_file_text(const std::string& text, const std::filesystem::path& file);

// The text of `file`; a RubricError when it cannot be read.
std::string read_course_file(const std::filesystem::path& file);

// Reads the fields of one JSON object, says which one is wrong and where, and can refuse keys that no
// reader asked for (a misspelt "at_most" must not silently mean "no limit").
class FieldReader {
 public:
  FieldReader(const nlohmann::json& object, std::string where);

  [[noreturn]] void fail(const std::string& what) const;

  // Errors name the item by its id once it is known.
  void set_where(std::string where) { where_ = std::move(where); }

  bool has(const char* key);
  std::string text(const char* key);
  std::optional<std::string> optional_text(const char* key);
  double number(const char* key);
  std::optional<double> optional_number(const char* key);
  std::optional<std::vector<std::string>> optional_texts(const char* key);
  const nlohmann::json& array(const char* key);  // non-empty

  void refuse_unknown_keys() const;

 private:
  const nlohmann::json& object_;
  std::string where_;
  std::set<std::string> seen_;
};

}  // namespace cudamatch::grade
