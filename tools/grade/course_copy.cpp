#include "course_copy.hpp"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

namespace cudamatch::grade {

namespace fs = std::filesystem;

namespace {

constexpr const char* kMarker = ".cudamatch-grade-copy";

bool excluded(const fs::path& relative) {
  // solutions/: a submission must not be able to include the reference (docs/grading.md).
  static const std::set<std::string> excluded_paths{"build", ".git", ".deps", "datasets/cache", "solutions"};
  return excluded_paths.count(relative.generic_string()) != 0;
}

bool same_bytes(const fs::path& a, const fs::path& b) {
  std::error_code error;
  if (!fs::is_regular_file(fs::symlink_status(b, error)) || fs::file_size(a) != fs::file_size(b, error)) return false;
  std::ifstream in_a(a, std::ios::binary), in_b(b, std::ios::binary);
  return std::equal(std::istreambuf_iterator<char>(in_a), std::istreambuf_iterator<char>(),
                    std::istreambuf_iterator<char>(in_b), std::istreambuf_iterator<char>());
}

}  // namespace

bool copy_if_different(const fs::path& from, const fs::path& to) {
  const bool same = same_bytes(from, to);
  if (!same) {
    std::error_code error;
    if (fs::exists(fs::symlink_status(to, error))) fs::remove_all(to);
    fs::create_directories(to.parent_path());
    fs::copy_file(from, to);
  }
  // Readable by all, whatever the original's mode: the sandbox user builds from the copy (sandbox.hpp).
  const bool executable = (fs::status(from).permissions() & fs::perms::owner_exec) != fs::perms::none;
  fs::permissions(
      to, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read |
              (executable ? fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec : fs::perms::none));
  return !same;
}

void mirror_course(const fs::path& course, const fs::path& copy) {
  std::error_code error;
  if (fs::exists(copy) && !fs::is_empty(copy) && !fs::exists(copy / kMarker)) {
    throw CourseCopyError(copy.string() +
                          " exists and is not a copy made by cudamatch-grade: refusing to overwrite it");
  }
  fs::create_directories(copy);
  fs::permissions(copy, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                            fs::perms::others_exec);
  std::ofstream(copy / kMarker) << "A copy of the course made by cudamatch-grade; it may be deleted.\n";

  std::set<fs::path> wanted{kMarker};
  for (auto it = fs::recursive_directory_iterator(course); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path relative = it->path().lexically_relative(course);
    if (excluded(relative)) {
      if (it->is_directory()) it.disable_recursion_pending();
      continue;
    }
    wanted.insert(relative);
    const fs::path target = copy / relative;
    const auto status = it->symlink_status();
    if (fs::is_symlink(status)) {
      const fs::path link = fs::read_symlink(it->path());
      if (!fs::is_symlink(fs::symlink_status(target, error)) || fs::read_symlink(target, error) != link) {
        if (fs::exists(fs::symlink_status(target, error))) fs::remove_all(target);
        fs::create_symlink(link, target);
      }
    } else if (fs::is_directory(status)) {
      if (!fs::is_directory(fs::symlink_status(target, error))) {
        if (fs::exists(fs::symlink_status(target, error))) fs::remove(target);
        fs::create_directories(target);
      }
      fs::permissions(target, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                                  fs::perms::others_read | fs::perms::others_exec);
    } else if (fs::is_regular_file(status)) {
      copy_if_different(it->path(), target);
    }
  }
  // What an earlier copy had and the course no longer has (or a submission added) goes.
  std::vector<fs::path> stale;
  for (auto it = fs::recursive_directory_iterator(copy); it != fs::recursive_directory_iterator(); ++it) {
    const fs::path relative = it->path().lexically_relative(copy);
    if (wanted.count(relative) == 0) {
      stale.push_back(it->path());
      if (it->is_directory() && !it->is_symlink()) it.disable_recursion_pending();
    }
  }
  for (const auto& path : stale) fs::remove_all(path);
}

}  // namespace cudamatch::grade
