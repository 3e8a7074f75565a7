#include "lesson_manifest.hpp"

#include <sstream>

#include "json_fields.hpp"

namespace cudamatch::grade {

namespace {

// A file named in the manifest becomes a path under lessons/<id>/: never absolute, never "..", no
// empty parts.
void check_lesson_file_name(const std::string& what, const std::string& name, const FieldReader& reader) {
  if (name.empty() || name.front() == '/' || name.find('\\') != std::string::npos) {
    reader.fail(what + " \"" + name + "\" must be a relative path (plain name or sub/name)");
  }
  std::istringstream parts(name);
  for (std::string part; std::getline(parts, part, '/');) {
    if (part.empty() || part == "." || part == "..") {
      reader.fail(what + " \"" + name + "\" must stay inside the lesson folder (no \"..\", \".\" or \"//\")");
    }
  }
  if (name.back() == '/') reader.fail(what + " \"" + name + "\" must name a file, not a folder");
}

}  // namespace

LessonManifest parse_lesson_manifest(const std::string& text, const std::filesystem::path& file) {
  const nlohmann::json document = parse_json_file_text(text, file);
  FieldReader reader(document, file.string());
  LessonManifest manifest;
  manifest.file = file;
  const auto editable = reader.optional_texts("editable");
  if (!editable || editable->empty()) reader.fail("needs \"editable\": the files a student may replace");
  for (const auto& name : *editable) {
    check_lesson_file_name("editable file", name, reader);
    for (const auto& earlier : manifest.editable) {
      if (earlier == name) reader.fail("editable file \"" + name + "\" is listed twice");
    }
    manifest.editable.push_back(name);
  }
  for (const auto& id : reader.optional_texts("uses").value_or(std::vector<std::string>{})) {
    const bool plain =
        !id.empty() && id.find_first_not_of("0123456789abcdefghijklmnopqrstuvwxyz-") == std::string::npos;
    if (!plain) reader.fail("\"uses\" names \"" + id + "\", which is not a lesson id (NN-topic)");
    manifest.uses.push_back(id);
  }
  manifest.rubric = reader.optional_text("rubric").value_or("");
  if (!manifest.rubric.empty()) check_lesson_file_name("rubric", manifest.rubric, reader);
  return manifest;
}

LessonManifest load_lesson_manifest(const std::filesystem::path& lesson_dir) {
  const std::filesystem::path file = lesson_dir / "lesson.json";
  LessonManifest manifest = parse_lesson_manifest(read_course_file(file), file);
  for (const auto& name : manifest.editable) {
    if (!std::filesystem::is_regular_file(lesson_dir / name)) {
      throw RubricError(file.string() + ": editable file \"" + name + "\" is not in " + lesson_dir.string());
    }
  }
  return manifest;
}

}  // namespace cudamatch::grade
