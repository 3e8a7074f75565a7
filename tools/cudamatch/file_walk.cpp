#include "file_walk.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <utility>

namespace cudamatch::cli {

namespace {

namespace fs = std::filesystem;

// Appends the regular files below `folder` (named `shown`, "" for the current folder).
void walk(const fs::path& folder, const std::string& shown, WalkedFiles& out) {
  std::error_code error;
  fs::directory_iterator it(folder, error);
  if (error) {
    out.errors.push_back((shown.empty() ? std::string(".") : shown) + ": " + error.message());
    return;
  }
  std::vector<std::pair<std::string, bool>> entries;  // (name, whether it is a folder)
  for (; it != fs::directory_iterator(); it.increment(error)) {
    if (error) {
      out.errors.push_back((shown.empty() ? std::string(".") : shown) + ": " + error.message());
      return;
    }
    const fs::file_status status = it->symlink_status(error);  // a link is not followed
    if (error || !(fs::is_regular_file(status) || fs::is_directory(status))) continue;
    entries.emplace_back(it->path().filename().string(), fs::is_directory(status));
  }
  std::sort(entries.begin(), entries.end());
  for (const auto& [name, is_folder] : entries) {
    const std::string path = shown.empty() ? name : shown.back() == '/' ? shown + name : shown + "/" + name;
    if (is_folder) {
      walk(folder / name, path, out);
    } else {
      out.files.push_back(path);
    }
  }
}

}  // namespace

WalkedFiles walk_operands(const std::vector<std::string>& operands, bool recursive) {
  WalkedFiles out;
  if (!recursive) {
    out.files = operands;
    return out;
  }
  if (operands.empty()) {
    walk(fs::path("."), "", out);
    return out;
  }
  for (const std::string& operand : operands) {
    std::error_code error;
    if (operand != "-" && fs::is_directory(operand, error)) {  // an operand that is a link to a folder is followed
      walk(fs::path(operand), operand, out);
    } else {
      out.files.push_back(operand);
    }
  }
  return out;
}

}  // namespace cudamatch::cli
