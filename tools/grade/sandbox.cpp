#include "sandbox.hpp"

#include <algorithm>

#include <dirent.h>
#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <signal.h>

#include <cerrno>
#include <fstream>
#include <iterator>

#include <cstdlib>
#include <sstream>
#include <stdexcept>

#include "text.hpp"

namespace cudamatch::grade {

namespace fs = std::filesystem;

namespace {

// How many components of `path` `root` covers (0: none); a trailing '/' of the root is no component.
std::size_t depth_under(const fs::path& path, const fs::path& root) {
  if (!is_within(path, root)) return 0;
  std::size_t depth = 0;
  for (const auto& part : root) depth += part.empty() ? 0 : 1;
  return depth;
}

// Runs the shell `script` with `args` as the confined child would, and returns the lines it prints;
// `what` names the check in the error when the shell itself fails.
std::vector<std::string> confined_shell_lines(const ChildSetup& child, const char* script,
                                              const std::vector<std::string>& args, double timeout_s,
                                              const std::string& what) {
  ProcessSpec spec = confined_spec(child);
  spec.argv = {"/bin/sh", "-c", script, "sh"};
  spec.argv.insert(spec.argv.end(), args.begin(), args.end());
  spec.timeout_s = timeout_s;
  const ProcessResult result = run_process(spec);
  if (!result.exited_with(0)) throw std::runtime_error(what + ": /bin/sh " + result.describe());
  std::vector<std::string> lines;
  std::istringstream output(result.output);
  for (std::string line; std::getline(output, line);) {
    if (!line.empty()) lines.push_back(line);
  }
  return lines;
}

}  // namespace

bool is_within(const fs::path& path, const fs::path& folder) {
  auto p = path.begin();
  for (const auto& part : folder) {
    if (part.empty()) continue;  // a trailing '/' of the folder
    if (p == path.end() || *p != part) return false;
    ++p;
  }
  return true;
}

const std::vector<std::string>& passed_variables() {
  static const std::vector<std::string> names{"PATH",
                                              "LD_LIBRARY_PATH",
                                              "CMAKE_PREFIX_PATH",
                                              "CUDAARCHS",
                                              "CUDACXX",
                                              "CC",
                                              "CXX",
                                              "CUDA_HOME",
                                              "CUDA_PATH",
                                              "CUDA_VISIBLE_DEVICES",
                                              "NVIDIA_VISIBLE_DEVICES",
                                              "NVIDIA_DRIVER_CAPABILITIES",
                                              "CUDAMATCH_DATA"};
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
  // An extra variable replaces a passed one of the same name: with both, the child's getenv would
  // see the first, the outer value.
  for (const auto& [name, value] : extra) {
    environment.erase(std::remove_if(environment.begin(), environment.end(),
                                     [&name = name](const auto& entry) { return entry.first == name; }),
                      environment.end());
    environment.emplace_back(name, value);
  }
  return environment;
}

std::optional<UserIdentity> sandbox_user(const std::string& name) {
  if (geteuid() != 0) return std::nullopt;
  const passwd* entry = getpwnam(name.c_str());
  if (entry == nullptr) throw std::runtime_error("no user '" + name + "' to run submissions as (--sandbox-user)");
  if (entry->pw_uid == 0)
    throw std::runtime_error("--sandbox-user " + name + " is root: submissions must not run as root");
  return UserIdentity{name, entry->pw_uid, entry->pw_gid};
}

namespace {

// Gives the folder open as `dir` and everything in it to `user`, by descriptors: a link is given
// itself and never followed, and a folder swapped for a link while this runs is not entered.
void give_folder(int dir, const fs::path& where, const UserIdentity& user) {
  if (fchown(dir, user.uid, user.gid) != 0)
    throw std::runtime_error("cannot give " + where.string() + " to " + user.name);
  DIR* listing = fdopendir(dup(dir));
  if (listing == nullptr) throw std::runtime_error("cannot list " + where.string());
  std::vector<std::string> names;
  while (const dirent* entry = readdir(listing)) {
    const std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  closedir(listing);
  for (const auto& name : names) {
    const int child = openat(dir, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (child >= 0) {
      give_folder(child, where / name, user);
      close(child);
    } else if (fchownat(dir, name.c_str(), user.uid, user.gid, AT_SYMLINK_NOFOLLOW) != 0 && errno != ENOENT) {
      throw std::runtime_error("cannot give " + (where / name).string() + " to " + user.name);
    }
  }
}

}  // namespace

void give_tree(const fs::path& tree, const UserIdentity& user) {
  const int dir = open(tree.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir < 0) throw std::runtime_error("cannot give " + tree.string() + " to " + user.name + ": not a folder");
  try {
    give_folder(dir, tree, user);
  } catch (...) {
    close(dir);
    throw;
  }
  close(dir);
}

std::optional<std::string> read_written_file(const fs::path& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return std::nullopt;
  struct stat info {};
  std::optional<std::string> text;
  if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode)) {
    text.emplace();
    char buffer[65536];
    for (ssize_t n; (n = read(fd, buffer, sizeof buffer)) > 0;) text->append(buffer, static_cast<std::size_t>(n));
  }
  close(fd);
  return text;
}

unsigned long long process_start_ticks(const std::string& pid) {
  std::ifstream stat("/proc/" + pid + "/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const auto after_name = text.rfind(')');  // the command name may hold spaces and parentheses
  if (after_name == std::string::npos) return 0;
  std::istringstream fields(text.substr(after_name + 2));
  std::string field;
  for (int i = 3; i <= 22 && fields >> field; ++i) {  // field 22: starttime
    if (i == 22) return std::stoull(field);
  }
  return 0;
}

std::size_t kill_leftovers(const UserIdentity& user, unsigned long long since_ticks) {
  std::size_t killed = 0;
  for (int round = 0; round < 10; ++round) {  // again: one may have forked while the others died
    std::size_t found = 0;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator("/proc", error)) {
      const std::string pid = entry.path().filename().string();
      if (pid.find_first_not_of("0123456789") != std::string::npos) continue;
      struct stat info {};
      if (stat(entry.path().c_str(), &info) != 0 || info.st_uid != user.uid) continue;
      if (process_start_ticks(pid) < since_ticks) continue;  // not this grading run's
      if (kill(static_cast<pid_t>(std::stol(pid)), SIGKILL) == 0) ++found;
    }
    killed += found;
    if (found == 0) break;
    usleep(20000);
  }
  return killed;
}

std::vector<std::string> inaccessible(const ChildSetup& child, const std::vector<fs::path>& readable,
                                      const std::vector<fs::path>& writable) {
  // Arguments "r PATH" or "w PATH"; prints each PATH the shell cannot use so, and for a folder to
  // read the first file or folder in it that cannot be read (or entered).
  const char* script =
      "while [ $# -gt 1 ]; do if [ \"$1\" = w ]; then [ -w \"$2\" ] || echo \"$2\"; "
      "elif [ -d \"$2\" ]; then if [ -r \"$2\" ] && [ -x \"$2\" ]; then "
      "find \"$2\" \\( ! -readable -o -type d ! -executable \\) -print -quit 2>/dev/null; else echo \"$2\"; fi; "
      "else [ -r \"$2\" ] || echo \"$2\"; fi; shift 2; done; exit 0";
  std::vector<std::string> args;
  for (const auto& path : readable) args.insert(args.end(), {"r", path.string()});
  for (const auto& path : writable) args.insert(args.end(), {"w", path.string()});
  return confined_shell_lines(child, script, args, 60, "checking what submissions can reach");
}

std::vector<std::string> readable_inside(const ChildSetup& child, const std::vector<fs::path>& paths) {
  std::vector<std::string> args;
  for (const auto& path : paths) args.push_back(path.string());
  return confined_shell_lines(child, "for p; do find \"$p\" -type f -readable -print -quit 2>/dev/null; done; exit 0",
                              args, 120, "checking what submissions can read");
}

NinjaDeps parse_ninja_deps(const std::string& listing, const std::string& object_marker, const fs::path& build_dir) {
  // "object: #deps 2, deps mtime 123 (VALID)" and then one indented input per line.
  NinjaDeps deps;
  std::istringstream lines(listing);
  bool wanted = false;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    if (line[0] != ' ' && line[0] != '\t') {
      wanted = line.find(object_marker) != std::string::npos;
      const auto colon = line.find(": #deps ");
      if (wanted && colon != std::string::npos && line.size() >= 7 &&
          line.compare(line.size() - 7, 7, "(VALID)") == 0) {
        deps.recorded.push_back(line.substr(0, colon));
      }
      continue;
    }
    if (!wanted) continue;
    const fs::path input(trim(line));
    deps.inputs.push_back((input.is_absolute() ? input : build_dir / input).lexically_normal());
  }
  return deps;
}

std::vector<std::string> compiled_objects(const std::string& targets_listing, const std::string& object_marker) {
  std::vector<std::string> objects;
  std::istringstream lines(targets_listing);
  for (std::string line; std::getline(lines, line);) {
    const auto colon = line.find(": ");
    if (colon == std::string::npos || line.find(object_marker) == std::string::npos) continue;
    const std::string target = line.substr(0, colon);
    const auto ends_with = [&](const std::string& suffix) {
      return target.size() >= suffix.size() &&
             target.compare(target.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (ends_with(".o") || ends_with(".ptx")) objects.push_back(target);
  }
  return objects;
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
