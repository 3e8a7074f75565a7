#include "sandbox.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "text.hpp"

namespace cudamatch::grade {

namespace fs = std::filesystem;

namespace {

bool is_under(const fs::path& path, const fs::path& root) {
  auto p = path.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++p) {
    if (r->empty()) continue;  // a trailing '/' of the root
    if (p == path.end() || *p != *r) return false;
  }
  return true;
}

// How many components of `path` `root` covers (0: none).
std::size_t depth_under(const fs::path& path, const fs::path& root) {
  return is_under(path, root) ? static_cast<std::size_t>(std::distance(root.begin(), root.end())) : 0;
}

}  // namespace

const std::vector<std::string>& passed_variables() {
  static const std::vector<std::string> names{
      "PATH", "LD_LIBRARY_PATH", "CMAKE_PREFIX_PATH", "CUDAARCHS", "CUDACXX", "CC", "CXX", "CUDA_HOME", "CUDA_PATH",
      "CUDA_VISIBLE_DEVICES", "NVIDIA_VISIBLE_DEVICES", "NVIDIA_DRIVER_CAPABILITIES", "CUDAMATCH_DATA"};
  return names;
}

Environment child_environment(const fs::path& private_dir, const Environment& extra) {
  Environment environment;
  for (const auto& name : passed_variables()) {
    if (const char* value = std::getenv(name.c_str()); value != nullptr) environment.emplace_back(name, value);
  }
  fs::create_directories(private_dir / "home");
  fs::create_directories(private_dir / "tmp");
  environment.emplace_back("HOME", (private_dir / "home").string());
  environment.emplace_back("TMPDIR", (private_dir / "tmp").string());
  environment.emplace_back("LC_ALL", "C");
  environment.insert(environment.end(), extra.begin(), extra.end());
  return environment;
}

std::optional<UserIdentity> sandbox_user(const std::string& name) {
  if (geteuid() != 0) return std::nullopt;
  const passwd* entry = getpwnam(name.c_str());
  if (entry == nullptr) throw std::runtime_error("no user '" + name + "' to run submissions as (--sandbox-user)");
  if (entry->pw_uid == 0) throw std::runtime_error("--sandbox-user " + name + " is root: submissions must not run as root");
  return UserIdentity{name, entry->pw_uid, entry->pw_gid};
}

void give_tree(const fs::path& tree, const UserIdentity& user) {
  const auto give = [&](const fs::path& path) {
    if (lchown(path.c_str(), user.uid, user.gid) != 0) {
      throw std::runtime_error("cannot give " + path.string() + " to " + user.name + " (lchown failed)");
    }
  };
  give(tree);
  for (auto it = fs::recursive_directory_iterator(tree); it != fs::recursive_directory_iterator(); ++it) give(it->path());
}

std::vector<std::string> inaccessible(const ChildSetup& child, const std::vector<fs::path>& readable,
                                      const std::vector<fs::path>& writable) {
  ProcessSpec spec = confined_spec(child);
  // Arguments "r PATH" or "w PATH"; prints each PATH the shell cannot use so, and for a folder to
  // read the first file or folder in it that cannot be read (or entered).
  spec.argv = {"/bin/sh", "-c",
               "while [ $# -gt 1 ]; do if [ \"$1\" = w ]; then [ -w \"$2\" ] || echo \"$2\"; "
               "elif [ -d \"$2\" ]; then { [ -r \"$2\" ] && [ -x \"$2\" ]; } || echo \"$2\"; "
               "find \"$2\" \\( ! -readable -o -type d ! -executable \\) -print -quit 2>/dev/null; "
               "else [ -r \"$2\" ] || echo \"$2\"; fi; shift 2; done",
               "sh"};
  for (const auto& path : readable) spec.argv.insert(spec.argv.end(), {"r", path.string()});
  for (const auto& path : writable) spec.argv.insert(spec.argv.end(), {"w", path.string()});
  spec.timeout_s = 60;
  const ProcessResult result = run_process(spec);
  if (!result.exited_with(0)) throw std::runtime_error("checking what submissions can reach: /bin/sh " + result.describe());
  std::vector<std::string> paths;
  std::istringstream lines(result.output);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty()) paths.push_back(line);
  }
  return paths;
}

std::vector<fs::path> parse_ninja_deps(const std::string& listing, const std::string& object_marker,
                                       const fs::path& build_dir) {
  // "object: #deps 2, deps mtime 123 (VALID)" and then one indented input per line.
  std::vector<fs::path> inputs;
  std::istringstream lines(listing);
  bool wanted = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    if (line[0] != ' ' && line[0] != '\t') {
      wanted = line.find(object_marker) != std::string::npos;
      continue;
    }
    if (!wanted) continue;
    const fs::path input(trim(line));
    inputs.push_back((input.is_absolute() ? input : build_dir / input).lexically_normal());
  }
  return inputs;
}

std::vector<fs::path> outside_roots(const std::vector<fs::path>& inputs, const std::vector<fs::path>& allowed,
                                    const fs::path& forbidden) {
  std::vector<fs::path> outside;
  for (const auto& input : inputs) {
    std::size_t best_allowed = 0;
    for (const auto& root : allowed) best_allowed = std::max(best_allowed, depth_under(input, root));
    // The most specific root decides: the copy inside the course's build/ folder is allowed, the
    // course around it is not.
    if (best_allowed == 0 || depth_under(input, forbidden) > best_allowed) outside.push_back(input);
  }
  return outside;
}

}  // namespace cudamatch::grade
