#include "file_walk.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

namespace cudamatch::cli {

namespace {

namespace fs = std::filesystem;

// `base` and `name` joined by one '/' ("" joins nothing: the current folder's names stand alone).
std::string join(const std::string& base, const std::string& name) {
  if (base.empty()) return name;
  return base.back() == '/' ? base + name : base + "/" + name;
}

// An operand without its trailing slashes ("d//" shows as "d"), "/" kept.
std::string without_trailing_slashes(std::string path) {
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  return path;
}

// Visits the regular files below the folder opened as `open` and shown as `shown`; false: stopped.
bool walk(const std::string& open, const std::string& shown, const FileFilters& filters,
          const std::function<bool(const WalkedFile&)>& visit,
          const std::function<void(const std::string&)>& on_error) {
  const std::string named = shown.empty() ? std::string(".") : shown;
  std::error_code error;
  fs::directory_iterator it(open, error);
  if (error) {
    on_error(named + ": " + error.message());
    return true;
  }
  std::vector<std::pair<std::string, bool>> entries;  // (name, whether it is a folder)
  for (; it != fs::directory_iterator(); it.increment(error)) {
    const std::string name = it->path().filename().string();
    const fs::file_status status = it->symlink_status(error);  // a link is not followed
    if (error) {
      if (error != std::errc::no_such_file_or_directory) on_error(join(shown, name) + ": " + error.message());
      continue;  // (a file that went away since the folder was read is no error)
    }
    if (fs::is_regular_file(status) || fs::is_directory(status)) entries.emplace_back(name, fs::is_directory(status));
  }
  // A failed read of the folder ends the loop (the iterator becomes the end): the entries read so far
  // are still searched.
  if (error) on_error(named + ": " + error.message());
  std::sort(entries.begin(), entries.end());
  for (const auto& [name, is_folder] : entries) {
    // Opened through the folder's path ("./-" in the current folder is a file, "-" standard input).
    const std::string path = join(open, name), seen = join(shown, name);
    if (!(is_folder ? filters.wants_folder(name, false) : filters.wants_file(name, false))) continue;
    if (is_folder ? !walk(path, seen, filters, visit, on_error) : !visit({path, seen})) return false;
  }
  return true;
}

bool is_folder(const std::string& operand) {
  std::error_code error;
  return operand != "-" && fs::is_directory(operand, error);  // a link given as an operand is followed
}

}  // namespace

void FileFilters::add(Kind kind, std::string glob) {
  if (kind == Kind::exclude_dir) glob = without_trailing_slashes(glob);  // --exclude-dir=node_modules/
  filters_.push_back({kind, std::move(glob)});
}

bool FileFilters::matches(const std::string& glob, const std::string& name, bool operand) {
  if (::fnmatch(glob.c_str(), name.c_str(), 0) == 0) return true;
  if (!operand) return false;
  for (std::size_t slash = name.find('/'); slash != std::string::npos; slash = name.find('/', slash + 1)) {
    if (::fnmatch(glob.c_str(), name.c_str() + slash + 1, 0) == 0) return true;
  }
  return false;
}

bool FileFilters::wants_file(const std::string& name, bool operand) const {
  std::optional<bool> decided;
  std::optional<bool> first_is_include;
  for (const Filter& f : filters_) {
    if (f.kind == Kind::exclude_dir) continue;
    if (!first_is_include) first_is_include = f.kind == Kind::include;
    if (matches(f.glob, name, operand)) decided = f.kind == Kind::include;
  }
  return decided.value_or(!first_is_include.value_or(false));
}

bool FileFilters::wants_folder(const std::string& name, bool operand) const {
  return std::none_of(filters_.begin(), filters_.end(),
                      [&](const Filter& f) { return f.kind == Kind::exclude_dir && matches(f.glob, name, operand); });
}

bool walk_names_several(const std::vector<std::string>& operands) {
  return operands.size() != 1 || is_folder(operands.front());
}

bool walk_operands(const std::vector<std::string>& operands, bool recursive, const FileFilters& filters,
                   const std::function<bool(const WalkedFile&)>& visit,
                   const std::function<void(const std::string&)>& on_error) {
  if (recursive && operands.empty()) return walk(".", "", filters, visit, on_error);
  for (const std::string& operand : operands) {
    std::error_code error;
    const bool exists = operand != "-" && fs::exists(operand, error);
    if (operand == "-") {
      if (!visit({operand, "(standard input)"})) return false;
    } else if (!exists) {
      if (!visit({operand, operand})) return false;  // its error is reported, whatever the filters (grep)
    } else if (is_folder(operand)) {                 // --exclude-dir judges folder operands, -r or not
      if (!filters.wants_folder(operand, true)) continue;
      if (!recursive) {
        if (!visit({operand, operand, true})) return false;
        continue;
      }
      const std::string folder = without_trailing_slashes(operand);
      if (!walk(folder, folder, filters, visit, on_error)) return false;
    } else if (filters.wants_file(operand, true) && !visit({operand, operand})) {
      return false;
    }
  }
  return true;
}

}  // namespace cudamatch::cli
