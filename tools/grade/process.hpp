// Runs a child process with a time limit and captures its output. The child leads its own process
// group; on timeout the whole group is killed (SIGKILL), so a hanging kernel, or a test that left
// children behind, cannot hang the grader.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudamatch::grade {

using Environment = std::vector<std::pair<std::string, std::string>>;

struct UserIdentity {
  std::string name;
  uid_t uid = 0;
  gid_t gid = 0;
};

// How every child that builds or runs course code is confined: it gets exactly `environment` (none
// of the grader's own variables) and, when `user` is set, that user's identity and no groups.
struct ChildSetup {
  Environment environment;
  std::optional<UserIdentity> user;
};

struct ProcessSpec {
  std::vector<std::string> argv;            // argv[0] is looked up on the PATH when it has no '/'
  std::filesystem::path working_directory;  // empty: the grader's
  Environment environment;                  // set in the child, over the grader's (or over setup's environment)
  std::optional<ChildSetup> setup;          // confined: setup's environment instead of the grader's, setup's user
  std::string input;                        // standard input (at most kMaxInputBytes); empty: /dev/null
  double timeout_s = 0.0;                   // 0: no limit
  std::size_t keep_bytes = 8192;            // the last bytes of output kept
  bool merge_stderr = true;                 // false: stderr is kept apart, in ProcessResult::errors
};

struct ProcessResult {
  bool started = false;
  std::string start_error;  // why it did not start
  bool timed_out = false;
  int exit_code = -1;  // -1 unless it exited
  int signal = 0;      // the signal that ended it, 0 if none
  double seconds = 0.0;
  double timeout_s = 0.0;
  std::string output;  // stdout (and stderr when merged), its last keep_bytes
  std::string errors;  // stderr when not merged, its last keep_bytes

  bool exited_with(int code) const { return started && !timed_out && signal == 0 && exit_code == code; }
  // "exit 1", "killed by signal 11 (Segmentation fault)", "timed out after 300 s", "could not start: ..."
  std::string describe() const;
};

constexpr std::size_t kMaxInputBytes = 4096;  // fits a pipe's buffer: written before the child reads

ProcessResult run_process(const ProcessSpec& spec);

// A spec confined by `setup`.
ProcessSpec confined_spec(const ChildSetup& setup);

}  // namespace cudamatch::grade
