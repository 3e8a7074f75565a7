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

// Which of `paths` the confined child cannot read (folders: list and enter) or, for `writable`,
// write; runs one /bin/sh as the child would.
std::vector<std::string> inaccessible(const ChildSetup& child, const std::vector<std::filesystem::path>& readable,
                                      const std::vector<std::filesystem::path>& writable);

// The inputs Ninja recorded (`ninja -t deps`: every source and header each compile opened) for the
// objects whose path contains `object_marker` (e.g. ".07-brute-force.student.dir/"), as absolute
// paths (relative ones are relative to `build_dir`).
std::vector<std::filesystem::path> parse_ninja_deps(const std::string& listing, const std::string& object_marker,
                                                    const std::filesystem::path& build_dir);

// Of `inputs`, those a submission must not compile in: anything outside `allowed` roots, or inside
// `forbidden` (the course the copy was made from) unless also inside an allowed root nested in it.
std::vector<std::filesystem::path> outside_roots(const std::vector<std::filesystem::path>& inputs,
                                                 const std::vector<std::filesystem::path>& allowed,
                                                 const std::filesystem::path& forbidden);

}  // namespace cudamatch::grade
