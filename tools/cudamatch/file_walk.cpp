#include "file_walk.hpp"

#include <algorithm>
#include <filesystem>
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
bool walk(const std::string& open, const std::string& shown, const std::function<bool(const WalkedFile&)>& visit,
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
    if (error) {  // the entries read so far are still searched
      on_error(named + ": " + error.message());
      break;
    }
    const std::string name = it->path().filename().string();
    const fs::file_status status = it->symlink_status(error);  // a link is not followed
    if (error) {
      if (error != std::errc::no_such_file_or_directory) on_error(join(shown, name) + ": " + error.message());
      continue;  // (a file that went away since the folder was read is no error)
    }
    if (fs::is_regular_file(status) || fs::is_directory(status)) entries.emplace_back(name, fs::is_directory(status));
  }
  std::sort(entries.begin(), entries.end());
  for (const auto& [name, is_folder] : entries) {
    // Opened through the folder's path ("./-" in the current folder is a file, "-" standard input).
    const std::string path = join(open, name), seen = join(shown, name);
    if (is_folder ? !walk(path, seen, visit, on_error) : !visit({path, seen})) return false;
  }
  return true;
}

bool is_folder(const std::string& operand) {
  std::error_code error;
  return operand != "-" && fs::is_directory(operand, error);  // a link given as an operand is followed
}

}  // namespace

bool walk_names_several(const std::vector<std::string>& operands) {
  return operands.size() != 1 || is_folder(operands.front());
}

bool walk_operands(const std::vector<std::string>& operands, bool recursive,
                   const std::function<bool(const WalkedFile&)>& visit,
                   const std::function<void(const std::string&)>& on_error) {
  if (recursive && operands.empty()) return walk(".", "", visit, on_error);
  for (const std::string& operand : operands) {
    if (recursive && is_folder(operand)) {
      const std::string folder = without_trailing_slashes(operand);
      if (!walk(folder, folder, visit, on_error)) return false;
    } else if (!visit({operand, operand == "-" ? std::string("(standard input)") : operand})) {
      return false;
    }
  }
  return true;
}

}  // namespace cudamatch::cli
