#include "rubric.hpp"

#include <algorithm>

#include "common/result_id.hpp"
#include "json_fields.hpp"
#include "lesson_manifest.hpp"

namespace cudamatch::grade {

namespace {

using nlohmann::json;

// A row that a rubric names is its id in the driver's results file (common/results_json.hpp): a label
// ("padded 32x33") is an error, not a row that is never found.
std::optional<std::string> optional_row_id(FieldReader& reader, const char* key) {
  auto id = reader.optional_text(key);
  if (id && !is_result_id(*id)) {
    reader.fail(std::string("\"") + key +
                "\" must be a row id of the driver's results file ([a-z0-9_-], e.g. \"v3\"), not \"" + *id + "\"");
  }
  return id;
}

std::string row_id(FieldReader& reader, const char* key) {
  if (!reader.has(key)) reader.fail(std::string("needs \"") + key + "\"");
  return optional_row_id(reader, key).value();
}

Check read_check(const std::string& kind, FieldReader& reader) {
  if (kind == "tests") return TestsCheck{reader.text("tests")};
  if (kind == "sanitizer") return SanitizerCheck{reader.text("tests")};
  if (kind == "performance") {
    PerformanceCheck check;
    check.version = row_id(reader, "version");
    check.baseline = optional_row_id(reader, "baseline").value_or("");
    check.ceiling = reader.optional_text("ceiling").value_or("");
    if (check.baseline.empty() == check.ceiling.empty()) {
      reader.fail("a performance item needs exactly one of \"baseline\" and \"ceiling\"");
    }
    check.floor_version = optional_row_id(reader, "floor_version").value_or("");
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
  bound.row = optional_row_id(reader, "row").value_or("");
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
  const json document = parse_json_file_text(text, file);
  FieldReader reader(document, where);
  Rubric rubric;
  rubric.file = file;
  rubric.lesson = reader.text("lesson");
  if (reader.has("editable")) {
    reader.fail(
        "\"editable\" goes in lesson.json beside the rubric (the lesson's manifest, which the build reads too), "
        "not in the rubric");
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
  const LessonManifest manifest = load_lesson_manifest(lesson_dir);
  if (manifest.rubric.empty()) throw RubricError(manifest.file.string() + ": names no \"rubric\"");
  const std::filesystem::path file = lesson_dir / manifest.rubric;
  Rubric rubric = parse_rubric(read_course_file(file), file);
  const std::string folder = lesson_dir.filename().string();
  if (rubric.lesson != folder) {
    throw RubricError(file.string() + ": \"lesson\" is \"" + rubric.lesson + "\" but the folder is " + folder);
  }
  rubric.editable = manifest.editable;
  rubric.uses = manifest.uses;
  return rubric;
}

}  // namespace cudamatch::grade
