// What student code can reach while it is built and run (docs/grading.md, "What a submission can
// reach"): an environment of a few named variables, a private home and temporary folder, another
// user's identity when the grader runs as root, and an audit of the files each compile read.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "process.hpp"

namespace cudamatch::grade {

// Whether `path` is `folder` or lies inside it, comparing whole components (no symbolic link is
// resolved); a trailing '/' of `folder` does not matter.
bool is_within(const std::filesystem::path& path, const std::filesystem::path& folder);

// The variables a child keeps from the grader's environment: what CMake, the compilers and the CUDA
// driver need (PATH, CMAKE_PREFIX_PATH, CUDA_VISIBLE_DEVICES, ...). Nothing else passes.
const std::vector<std::string>& passed_variables();

// The child environment: the passed variables that are set here, HOME=<private_dir>/home,
// TMPDIR=<private_dir>/tmp (both created), LC_ALL=C, and `extra`.
Environment child_environment(const std::filesystem::path& private_dir, const Environment& extra);

// The identity children run as: `name`'s when the grader runs as root (nullopt otherwise).
// Throws std::runtime_error when there is no such user or it is root itself.
std::optional<UserIdentity> sandbox_user(const std::string& name);

// Gives every file and folder of `tree` to `user` (links themselves, never what they point to).
void give_tree(const std::filesystem::path& tree, const UserIdentity& user);

// The bytes of the regular file at `path`, read without following a link at its end (the sandbox user
// owns the folders the drivers and ncu write to, and could leave a link to a file only root may read);
// nullopt when it is missing, a link or not a regular file.
std::optional<std::string> read_written_file(const std::filesystem::path& path);

// When this process started, in clock ticks after boot (/proc/self/stat).
unsigned long long process_start_ticks(const std::string& pid = "self");

// Kills (SIGKILL) every process of `user` that started at or after `since_ticks`: what a child left
// running outside its process group (setsid) must not outlive its lesson. Returns how many.
std::size_t kill_leftovers(const UserIdentity& user, unsigned long long since_ticks);

// Which of `paths` the confined child cannot read (folders: list and enter) or, for `writable`,
// write; runs one /bin/sh as the child would.
std::vector<std::string> inaccessible(const ChildSetup& child, const std::vector<std::filesystem::path>& readable,
                                      const std::vector<std::filesystem::path>& writable);

// Of `paths`, those under which the confined child can read some file (the first such file).
std::vector<std::string> readable_inside(const ChildSetup& child, const std::vector<std::filesystem::path>& paths);

// The inputs Ninja recorded (`ninja -t deps`: every source and header each compile opened) for the
// objects whose path contains `object_marker` (e.g. ".11-brute-force.student.dir/"), as absolute
// paths (relative ones are relative to `build_dir`).
struct NinjaDeps {
  std::vector<std::filesystem::path> inputs;
  std::vector<std::string> recorded;  // the objects whose record is VALID (a STALE one is not)
};
NinjaDeps parse_ninja_deps(const std::string& listing, const std::string& object_marker,
                           const std::filesystem::path& build_dir);

// The compiled objects (.o, .ptx) of `targets_listing` (`ninja -t targets all`) whose path contains
// `object_marker`: each must have a VALID record, or what it read is unknown.
std::vector<std::string> compiled_objects(const std::string& targets_listing, const std::string& object_marker);

// Of `inputs`, those a submission must not compile in: anything outside `allowed` roots, or inside
// `forbidden` (the course the copy was made from) unless also inside an allowed root nested in it.
std::vector<std::filesystem::path> outside_roots(const std::vector<std::filesystem::path>& inputs,
                                                 const std::vector<std::filesystem::path>& allowed,
                                                 const std::filesystem::path& forbidden);

}  // namespace cudamatch::grade
