#include "rubric.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

namespace cudamatch::grade {

namespace {

using nlohmann::json;

// Reads the fields of one JSON object, says which one is wrong and where, and refuses keys that no
// reader asked for (a misspelt "at_most" must not silently mean "no limit").
class FieldReader {
 public:
  FieldReader(const json& object, std::string where) : object_(object), where_(std::move(where)) {
    if (!object_.is_object()) fail("must be a JSON object");
  }

  [[noreturn]] void fail(const std::string& what) const { throw RubricError(where_ + ": " + what); }

  // Errors name the item by its id once it is known.
  void set_where(std::string where) { where_ = std::move(where); }

  bool has(const char* key) {
    seen_.insert(key);
    return object_.contains(key);
  }

  std::string text(const char* key) {
    if (!has(key)) fail(std::string("needs \"") + key + "\"");
    return optional_text(key).value();
  }

  std::optional<std::string> optional_text(const char* key) {
    if (!has(key)) return std::nullopt;
    const json& value = object_.at(key);
    if (!value.is_string() || value.get<std::string>().empty()) {
      fail(std::string("\"") + key + "\" must be a non-empty string");
    }
    return value.get<std::string>();
  }

  double number(const char* key) {
    if (!has(key)) fail(std::string("needs \"") + key + "\"");
    return optional_number(key).value();
  }

  std::optional<double> optional_number(const char* key) {
    if (!has(key)) return std::nullopt;
    const json& value = object_.at(key);
    if (!value.is_number() || !std::isfinite(value.get<double>())) {
      fail(std::string("\"") + key + "\" must be a number");
    }
    return value.get<double>();
  }

  std::optional<std::vector<std::string>> optional_texts(const char* key) {
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

  const json& array(const char* key) {
    if (!has(key)) fail(std::string("needs \"") + key + "\"");
    const json& value = object_.at(key);
    if (!value.is_array() || value.empty()) fail(std::string("\"") + key + "\" must be a non-empty array");
    return value;
  }

  void refuse_unknown_keys() const {
    for (const auto& [key, value] : object_.items()) {
      if (seen_.count(key) == 0) fail("unknown key \"" + key + "\"");
    }
  }

 private:
  const json& object_;
  std::string where_;
  std::set<std::string> seen_;
};

// An editable entry becomes a path under lessons/<id>/: never absolute, never "..", no empty parts.
void check_editable_name(const std::string& name, const FieldReader& reader) {
  if (name.empty() || name.front() == '/' || name.find('\\') != std::string::npos) {
    reader.fail("editable file \"" + name + "\" must be a relative path (plain name or sub/name)");
  }
  std::istringstream parts(name);
  for (std::string part; std::getline(parts, part, '/');) {
    if (part.empty() || part == "." || part == "..") {
      reader.fail("editable file \"" + name + "\" must stay inside the lesson folder (no \"..\", \".\" or \"//\")");
    }
  }
  if (name.back() == '/') reader.fail("editable file \"" + name + "\" must name a file, not a folder");
}

Check read_check(const std::string& kind, FieldReader& reader) {
  if (kind == "tests") return TestsCheck{reader.text("tests")};
  if (kind == "sanitizer") return SanitizerCheck{reader.text("tests")};
  if (kind == "performance") {
    PerformanceCheck check;
    check.version = reader.text("version");
    check.baseline = reader.optional_text("baseline").value_or("");
    check.ceiling = reader.optional_text("ceiling").value_or("");
    if (check.baseline.empty() == check.ceiling.empty()) {
      reader.fail("a performance item needs exactly one of \"baseline\" and \"ceiling\"");
    }
    check.floor_version = reader.optional_text("floor_version").value_or("");
    if (!check.floor_version.empty() && check.ceiling.empty()) reader.fail("\"floor_version\" goes with \"ceiling\"");
    check.full_at = reader.number("full_at");
    check.floor = reader.optional_number("floor").value_or(check.baseline.empty() ? 0.0 : 1.0);
    if (!(check.full_at > check.floor)) {
      reader.fail("\"full_at\" must be larger than \"floor\" (" + std::to_string(check.floor) + ")");
    }
    return check;
  }
  if (kind == "ncu") {
    NcuCheck check;
    check.kernel = reader.text("kernel");
    check.metric = reader.text("metric");
    check.relative_to_kernel = reader.optional_text("relative_to_kernel").value_or("");
    check.at_most = reader.optional_number("at_most");
    check.at_least = reader.optional_number("at_least");
    if (!check.at_most && !check.at_least) reader.fail("an ncu item needs \"at_most\" or \"at_least\"");
    return check;
  }
  if (kind == "sass") {
    SassCheck check;
    check.binary = reader.text("binary");
    if (check.binary != "test" && check.binary != "driver") reader.fail("\"binary\" must be \"test\" or \"driver\"");
    check.function = reader.text("function");
    check.contains = reader.optional_texts("contains").value_or(std::vector<std::string>{});
    check.absent = reader.optional_texts("absent").value_or(std::vector<std::string>{});
    if (check.contains.empty() && check.absent.empty()) reader.fail("a sass item needs \"contains\" or \"absent\"");
    for (const auto& list : {check.contains, check.absent}) {
      for (const auto& text : list) {
        if (text.empty()) reader.fail("\"contains\" and \"absent\" must not hold empty strings");
      }
    }
    return check;
  }
  reader.fail("unknown kind \"" + kind + "\" (tests, performance, ncu, sass or sanitizer)");
}

Bound read_bound(const json& object, const std::string& file, std::size_t number) {
  FieldReader reader(object, file + ": bound " + std::to_string(number));
  Bound bound;
  bound.ceiling = reader.optional_text("ceiling").value_or("");
  bound.row = reader.optional_text("row").value_or("");
  if (bound.ceiling.empty() == bound.row.empty()) reader.fail("a bound needs exactly one of \"ceiling\" and \"row\"");
  if (const auto stride = reader.optional_text("stride")) {
    if (bound.ceiling.empty()) reader.fail("\"stride\" goes with \"ceiling\"");
    if (*stride != "1" && *stride != "m" && *stride != "m+1") reader.fail("\"stride\" must be \"1\", \"m\" or \"m+1\"");
    bound.stride = *stride;
  }
  reader.optional_text("note");  // why the hardware allows no more
  reader.refuse_unknown_keys();
  return bound;
}

RubricItem read_item(const json& object, const std::string& file, std::size_t number) {
  FieldReader reader(object, file + ": item " + std::to_string(number));
  RubricItem item;
  item.id = reader.text("id");
  reader.set_where(file + ": item \"" + item.id + "\"");
  item.name = reader.text("name");
  item.points = reader.number("points");
  if (item.points < 0) reader.fail("\"points\" must not be negative");
  item.check = read_check(reader.text("kind"), reader);
  if (std::holds_alternative<PerformanceCheck>(item.check) || std::holds_alternative<NcuCheck>(item.check)) {
    item.driver_args = reader.optional_texts("driver_args");
  }
  reader.optional_text("note");  // for the rubric's readers: why the threshold is what it is
  reader.refuse_unknown_keys();
  return item;
}

}  // namespace

const char* kind_name(const Check& check) {
  static const char* const names[] = {"tests", "performance", "ncu", "sass", "sanitizer"};
  return names[check.index()];
}

const std::vector<std::string>& Rubric::driver_args_for(const RubricItem& item) const {
  return item.driver_args ? *item.driver_args : driver_args;
}

Rubric parse_rubric(const std::string& text, const std::filesystem::path& file) {
  const std::string where = file.string();
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& e) {
    throw RubricError(where + ": not valid JSON: " + e.what());
  }
  FieldReader reader(document, where);
  Rubric rubric;
  rubric.file = file;
  rubric.lesson = reader.text("lesson");
  const auto editable = reader.optional_texts("editable");
  if (!editable || editable->empty()) reader.fail("needs \"editable\": the files a student may replace");
  for (const auto& name : *editable) {
    check_editable_name(name, reader);
    for (const auto& earlier : rubric.editable) {
      if (earlier == name) reader.fail("editable file \"" + name + "\" is listed twice");
    }
    rubric.editable.push_back(name);
  }
  rubric.driver_args = reader.optional_texts("driver_args").value_or(std::vector<std::string>{});
  const json& items = reader.array("items");
  for (std::size_t i = 0; i < items.size(); ++i) {
    RubricItem item = read_item(items[i], where, i + 1);
    for (const auto& earlier : rubric.items) {
      if (earlier.id == item.id) reader.fail("item id \"" + item.id + "\" is used twice");
    }
    rubric.items.push_back(std::move(item));
  }
  if (reader.has("bounds")) {
    const json& bounds = reader.array("bounds");
    for (std::size_t i = 0; i < bounds.size(); ++i) rubric.bounds.push_back(read_bound(bounds[i], where, i + 1));
  }
  const bool scores_speed = std::any_of(rubric.items.begin(), rubric.items.end(), [](const RubricItem& item) {
    return std::holds_alternative<PerformanceCheck>(item.check);
  });
  if (scores_speed && rubric.bounds.empty()) {
    reader.fail("performance items need \"bounds\": what the hardware allows, so that a replayed result scores 0");
  }
  reader.optional_text("note");
  reader.refuse_unknown_keys();
  return rubric;
}

Rubric load_rubric(const std::filesystem::path& lesson_dir) {
  const std::filesystem::path file = lesson_dir / "rubric.json";
  std::ifstream in(file, std::ios::binary);
  if (!in) throw RubricError(file.string() + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  Rubric rubric = parse_rubric(text.str(), file);
  const std::string folder = lesson_dir.filename().string();
  if (rubric.lesson != folder) {
    throw RubricError(file.string() + ": \"lesson\" is \"" + rubric.lesson + "\" but the folder is " + folder);
  }
  for (const auto& name : rubric.editable) {
    if (!std::filesystem::is_regular_file(lesson_dir / name)) {
      throw RubricError(file.string() + ": editable file \"" + name + "\" is not in " + lesson_dir.string());
    }
  }
  return rubric;
}

}  // namespace cudamatch::grade
