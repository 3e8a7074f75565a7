// Runs a child process with a time limit and captures its output. The child leads its own process
// group; on timeout the whole group is killed (SIGKILL), so a hanging kernel, or a test that left
// children behind, cannot hang the grader.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace cudamatch::grade {

struct ProcessSpec {
  std::vector<std::string> argv;  // argv[0] is looked up on the PATH when it has no '/'
  std::filesystem::path working_directory;  // empty: the grader's
  std::vector<std::pair<std::string, std::string>> environment;  // set in the child, over the grader's
  double timeout_s = 0.0;  // 0: no limit
  std::size_t keep_bytes = 8192;  // the last bytes of output kept
  bool merge_stderr = true;  // false: stderr is kept apart, in ProcessResult::errors
};

struct ProcessResult {
  bool started = false;
  std::string start_error;  // why it did not start
  bool timed_out = false;
  int exit_code = -1;  // -1 unless it exited
  int signal = 0;  // the signal that ended it, 0 if none
  double seconds = 0.0;
  double timeout_s = 0.0;
  std::string output;  // stdout (and stderr when merged), its last keep_bytes
  std::string errors;  // stderr when not merged, its last keep_bytes

  bool exited_with(int code) const { return started && !timed_out && signal == 0 && exit_code == code; }
  // "exit 1", "killed by signal 11 (Segmentation fault)", "timed out after 300 s", "could not start: ..."
  std::string describe() const;
};

ProcessResult run_process(const ProcessSpec& spec);

}  // namespace cudamatch::grade
