#include "process.hpp"

#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <map>
#include <cstdlib>
#include <cstring>

#include "text.hpp"

namespace cudamatch::grade {

namespace {

using Clock = std::chrono::steady_clock;

// The process groups of the children now running (several when tests run in parallel): the grader
// killed by Ctrl-C or SIGTERM takes them along (children in their own group do not get the
// terminal's signals). Lock-free atomics, so that the signal handler may read them.
constexpr std::size_t kMaxChildren = 256;
std::atomic<pid_t> g_running_groups[kMaxChildren];
static_assert(std::atomic<pid_t>::is_always_lock_free, "the signal handler reads these");

extern "C" void kill_group_and_die(int sig) {
  for (auto& group : g_running_groups) {
    const pid_t pid = group.load();
    if (pid > 0) kill(-pid, SIGKILL);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

// Registers a running child's group for the handler above (silently untracked beyond kMaxChildren).
class RunningGroup {
 public:
  explicit RunningGroup(pid_t pid) {
    for (auto& group : g_running_groups) {
      pid_t free_slot = 0;
      if (group.compare_exchange_strong(free_slot, pid)) {
        slot_ = &group;
        return;
      }
    }
  }
  ~RunningGroup() {
    if (slot_ != nullptr) slot_->store(0);
  }
  RunningGroup(const RunningGroup&) = delete;
  RunningGroup& operator=(const RunningGroup&) = delete;

 private:
  std::atomic<pid_t>* slot_ = nullptr;
};

// What the child hands to exec, built before fork: between fork and exec a child of a threaded
// grader may only make async-signal-safe calls (no allocation: another thread may hold malloc's lock).
struct ExecImage {
  std::vector<std::string> environment_strings;
  std::vector<char*> argv;
  std::vector<char*> envp;

  explicit ExecImage(const ProcessSpec& spec) {
    std::map<std::string, std::string> environment;
    if (spec.setup) {
      for (const auto& [name, value] : spec.setup->environment) environment[name] = value;
    } else {
      for (char** entry = environ; *entry != nullptr; ++entry) {
        const std::string text = *entry;
        const auto equals = text.find('=');
        if (equals != std::string::npos) environment[text.substr(0, equals)] = text.substr(equals + 1);
      }
    }
    for (const auto& [name, value] : spec.environment) environment[name] = value;
    for (const auto& [name, value] : environment) environment_strings.push_back(name + "=" + value);
    for (const auto& arg : spec.argv) argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    for (auto& entry : environment_strings) envp.push_back(entry.data());
    envp.push_back(nullptr);
  }
};

void install_signal_handlers() {
  static const bool installed = [] {
    signal(SIGINT, kill_group_and_die);
    signal(SIGTERM, kill_group_and_die);
    signal(SIGHUP, kill_group_and_die);
    return true;
  }();
  (void)installed;
}

// Appends to `buffer` and keeps only its last `keep` bytes (with room to spare, so that it trims rarely).
void append_tail(std::string& buffer, const char* data, std::size_t size, std::size_t keep, bool& cut) {
  buffer.append(data, size);
  if (buffer.size() > 2 * keep + 4096) {
    buffer.erase(0, buffer.size() - keep);
    cut = true;
  }
}

std::string finish_tail(std::string buffer, std::size_t keep, bool cut) {
  if (buffer.size() > keep) {
    buffer.erase(0, buffer.size() - keep);
    cut = true;
  }
  return cut ? "[... earlier output cut ...]\n" + buffer : buffer;
}

[[noreturn]] void fail_child(int status_fd) {
  const int error = errno;
  (void)!write(status_fd, &error, sizeof error);
  _exit(127);
}

[[noreturn]] void exec_child(const ProcessSpec& spec, const ExecImage& image, int in_fd, int out_fd, int err_fd,
                             int status_fd) {
  setpgid(0, 0);
  const int stdin_fd = in_fd >= 0 ? in_fd : open("/dev/null", O_RDONLY);
  if (stdin_fd >= 0) dup2(stdin_fd, STDIN_FILENO);
  dup2(out_fd, STDOUT_FILENO);
  dup2(err_fd, STDERR_FILENO);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  if (!spec.working_directory.empty() && chdir(spec.working_directory.c_str()) != 0) fail_child(status_fd);
  if (spec.setup && spec.setup->user) {  // groups first: after setuid the child may no longer drop them
    const UserIdentity& user = *spec.setup->user;
    if (setgroups(0, nullptr) != 0 || setgid(user.gid) != 0 || setuid(user.uid) != 0) fail_child(status_fd);
  }
  execvpe(image.argv[0], image.argv.data(), image.envp.data());
  fail_child(status_fd);
}

struct Pipe {
  int read = -1;
  int write = -1;
  bool open() {
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) return false;
    read = fds[0];
    write = fds[1];
    return true;
  }
  static void close_fd(int& fd) {
    if (fd >= 0) close(fd);
    fd = -1;
  }
  ~Pipe() {
    close_fd(read);
    close_fd(write);
  }
};

}  // namespace

std::string ProcessResult::describe() const {
  if (!started) return "could not start: " + start_error;
  if (timed_out) return "timed out after " + format_number(timeout_s, 1) + " s";
  if (signal != 0) return "killed by signal " + std::to_string(signal) + " (" + strsignal(signal) + ")";
  return "exit " + std::to_string(exit_code);
}

ProcessSpec confined_spec(const ChildSetup& setup) {
  ProcessSpec spec;
  spec.setup = setup;
  return spec;
}

ProcessResult run_process(const ProcessSpec& spec) {
  install_signal_handlers();
  ProcessResult result;
  result.timeout_s = spec.timeout_s;
  if (spec.argv.empty()) {
    result.start_error = "no command";
    return result;
  }
  if (spec.input.size() > kMaxInputBytes) {
    result.start_error = "standard input of " + std::to_string(spec.input.size()) + " bytes (at most " +
                         std::to_string(kMaxInputBytes) + ")";
    return result;
  }
  Pipe in, out, err, status;
  if ((!spec.input.empty() && !in.open()) || !out.open() || (!spec.merge_stderr && !err.open()) || !status.open()) {
    result.start_error = std::string("pipe: ") + std::strerror(errno);
    return result;
  }
  const ExecImage image(spec);
  const auto start = Clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    result.start_error = std::string("fork: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) exec_child(spec, image, in.read, out.write, spec.merge_stderr ? out.write : err.write, status.write);
  setpgid(pid, pid);  // also here: the group must exist before we may need to kill it
  const RunningGroup running(pid);
  // Written while this process still holds the read end (no SIGPIPE if the child is gone already),
  // and small enough for the pipe's buffer, so that it cannot block.
  if (in.write >= 0) (void)!write(in.write, spec.input.data(), spec.input.size());
  Pipe::close_fd(in.write);
  Pipe::close_fd(in.read);
  Pipe::close_fd(out.write);
  Pipe::close_fd(err.write);
  Pipe::close_fd(status.write);

  int exec_error = 0;
  if (read(status.read, &exec_error, sizeof exec_error) == static_cast<ssize_t>(sizeof exec_error)) {
    waitpid(pid, nullptr, 0);
    result.start_error = spec.argv[0] + ": " + std::strerror(exec_error);
    return result;
  }
  result.started = true;

  const auto deadline =
      start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(spec.timeout_s));
  bool out_cut = false, err_cut = false, exited = false, killed = false;
  int wait_status = 0;
  std::vector<pollfd> fds{{out.read, POLLIN, 0}};
  if (err.read >= 0) fds.push_back({err.read, POLLIN, 0});
  char buffer[65536];
  auto kill_group = [&] {
    kill(-pid, SIGKILL);
    kill(pid, SIGKILL);
    killed = true;
  };
  auto open_fds = [&] {
    int count = 0;
    for (const auto& fd : fds) count += fd.fd >= 0;
    return count;
  };
  Clock::time_point drain_deadline{};
  while (!exited || open_fds() > 0) {
    if (!exited) {
      // Notice the exit without reaping it yet: while the leader is a zombie its pid (the group's id)
      // cannot be reused, so killing what it left in its group cannot hit anyone else.
      siginfo_t info{};
      if (waitid(P_PID, static_cast<id_t>(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 && info.si_pid == pid) {
        exited = true;
        kill(-pid, SIGKILL);
        drain_deadline = Clock::now() + std::chrono::seconds(2);
      } else if (spec.timeout_s > 0 && !killed && Clock::now() >= deadline) {
        result.timed_out = true;
        kill_group();
      }
    }
    // A grandchild that escaped the group may hold the pipe open: stop reading a while after the exit.
    if (exited && Clock::now() >= drain_deadline) break;
    if (open_fds() == 0) {
      usleep(10000);
      continue;
    }
    if (poll(fds.data(), fds.size(), 50) < 0 && errno != EINTR) break;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        if (i == 0) append_tail(result.output, buffer, static_cast<std::size_t>(n), spec.keep_bytes, out_cut);
        else append_tail(result.errors, buffer, static_cast<std::size_t>(n), spec.keep_bytes, err_cut);
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;  // EOF: the Pipe closes it
      }
    }
  }
  waitpid(pid, &wait_status, 0);
  result.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (WIFEXITED(wait_status)) result.exit_code = WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) result.signal = WTERMSIG(wait_status);
  if (result.timed_out) result.signal = 0;  // our SIGKILL: the timeout is the reason
  result.output = valid_utf8(finish_tail(std::move(result.output), spec.keep_bytes, out_cut));
  result.errors = valid_utf8(finish_tail(std::move(result.errors), spec.keep_bytes, err_cut));
  return result;
}

}  // namespace cudamatch::grade
