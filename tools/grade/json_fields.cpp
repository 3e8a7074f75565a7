#include "json_fields.hpp"

#include <cmath>
#include <fstream>
#include <sstream>

namespace cudamatch::grade {

using nlohmann::json;

json parse_json_file_text(const std::string& text, const std::filesystem::path& file) {
  try {
    return json::parse(text);
  } catch (const json::parse_error& e) {
    throw RubricError(file.string() + ": not valid JSON: " + e.what());
  }
}

std::string read_course_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw RubricError(file.string() + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

FieldReader::FieldReader(const json& object, std::string where) : object_(object), where_(std::move(where)) {
  if (!object_.is_object()) fail("must be a JSON object");
}

void FieldReader::fail(const std::string& what) const { throw RubricError(where_ + ": " + what); }

bool FieldReader::has(const char* key) {
  seen_.insert(key);
  return object_.contains(key);
}

std::string FieldReader::text(const char* key) {
  if (!has(key)) fail(std::string("needs \"") + key + "\"");
  return optional_text(key).value();
}

std::optional<std::string> FieldReader::optional_text(const char* key) {
  if (!has(key)) return std::nullopt;
  const json& value = object_.at(key);
  if (!value.is_string() || value.get<std::string>().empty()) {
    fail(std::string("\"") + key + "\" must be a non-empty string");
  }
  return value.get<std::string>();
}

double FieldReader::number(const char* key) {
  if (!has(key)) fail(std::string("needs \"") + key + "\"");
  return optional_number(key).value();
}

std::optional<double> FieldReader::optional_number(const char* key) {
  if (!has(key)) return std::nullopt;
  const json& value = object_.at(key);
  if (!value.is_number() || !std::isfinite(value.get<double>())) {
    fail(std::string("\"") + key + "\" must be a number");
  }
  return value.get<double>();
}

std::optional<std::vector<std::string>> FieldReader::optional_texts(const char* key) {
  if (!has(key)) return std::nullopt;
  const json& value = object_.at(key);
  if (!value.is_array()) fail(std::string("\"") + key + "\" must be an array of strings");
  std::vector<std::string> texts;
  for (const json& element : value) {
    if (!element.is_string()) fail(std::string("\"") + key + "\" must be an array of strings");
    texts.push_back(element.get<std::string>());
  }
  return texts;
}

const json& FieldReader::array(const char* key) {
  if (!has(key)) fail(std::string("needs \"") + key + "\"");
  const json& value = object_.at(key);
  if (!value.is_array() || value.empty()) fail(std::string("\"") + key + "\" must be a non-empty array");
  return value;
}

void FieldReader::refuse_unknown_keys() const {
  for (const auto& [key, value] : object_.items()) {
    if (seen_.count(key) == 0) fail("unknown key \"" + key + "\"");
  }
}

}  // namespace cudamatch::grade
