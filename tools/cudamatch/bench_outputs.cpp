#include "bench_outputs.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <system_error>

#include "commands.hpp"
#include "common/table.hpp"
#include "pattern_source.hpp"

namespace cudamatch::cli {

namespace {

namespace fs = std::filesystem;

constexpr const char* kResultsRoot = "cudamatch-results";  // under the current directory

// Writes everything to standard output and to a file. Whether it succeeded is the file's say: a standard
// output that fails (a closed pipe) does not cut the file short.
class TeeBuffer : public std::streambuf {
 public:
  TeeBuffer(std::streambuf* out, std::streambuf* file) : out_(out), file_(file) {}

 protected:
  int overflow(int c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    out_->sputc(traits_type::to_char_type(c));
    return file_->sputc(traits_type::to_char_type(c));
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    out_->sputn(s, n);
    return file_->sputn(s, n);
  }
  int sync() override {
    out_->pubsync();
    return file_->pubsync();
  }

 private:
  std::streambuf* out_;
  std::streambuf* file_;
};

std::string timestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", &local);
  return text;
}

// Creates `folder` (its parents too) or the default one, NAME-YYYYmmdd-HHMMSS; returns the folder's path.
std::string create_folder(const std::string& folder, const std::string& name) {
  std::error_code error;
  if (!folder.empty()) {
    fs::create_directories(folder, error);
    if (error || !fs::is_directory(folder)) {
      throw UsageError("cannot create the results folder '" + folder +
                       "': " + (error ? error.message() : "a file of that name is in the way"));
    }
    return folder;
  }
  const std::string base = std::string(kResultsRoot) + "/" + name + "-" + timestamp();
  fs::create_directories(kResultsRoot, error);
  for (int copy = 1; !error; ++copy) {
    std::string candidate = copy == 1 ? base : base + "-" + std::to_string(copy);
    if (fs::create_directory(candidate, error)) return candidate;  // false: a run of the same second has it
  }
  throw UsageError("cannot create the results folder under '" + std::string(kResultsRoot) + "': " + error.message());
}

// The folder's path as printed, ending in one '/'.
std::string as_folder(const std::string& path) { return path.back() == '/' ? path : path + "/"; }

// Runs `argv` (the program looked up on PATH) and waits; its output goes to /dev/null when `quiet`.
// Returns its exit status, or -1 when it could not be started (not installed).
int run_program(const std::vector<std::string>& argv, bool quiet) {
  std::vector<char*> args;
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (quiet) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO);
  }
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return -1;
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// plot_bench.py lies at CUDAMATCH_PLOT_SCRIPT from the folder of the running program: in the build tree
// and where it is installed alike (tools/cudamatch/CMakeLists.txt puts it in both).
std::string plot_script() {
  std::error_code error;
  const fs::path program = fs::read_symlink("/proc/self/exe", error);
  return (program.parent_path() / CUDAMATCH_PLOT_SCRIPT).lexically_normal().string();
}

void write_csv(std::ofstream& out, const std::vector<BenchRow>& rows) {
  out << "device,corpus,synthetic,bytes,m,matcher,backend,patterns,median_ms,min_ms,gbps,pct_of_read,matches,correct,"
         "alphabet,chosen\n";
  for (const BenchRow& r : rows) {
    out << '"' << r.device << "\"," << r.corpus << ',' << (r.synthetic ? 1 : 0) << ',' << r.n << ',' << r.m << ','
        << r.contender << ',' << r.backend << ',' << r.time.reps << ',' << fixed(r.time.median_ms, 5) << ','
        << fixed(r.time.min_ms, 5) << ',' << fixed(r.gbps, 4) << ',' << fixed(r.pct_of_read, 2) << ',' << r.matches
        << ',' << (r.correct ? 1 : 0) << ',' << r.alphabet << ',' << r.chosen << '\n';
  }
}

void write_csv(std::ofstream& out, const std::vector<MultiBenchRow>& rows) {
  out << "device,corpus,synthetic,bytes,kind,pattern_count,min_m,max_m,matcher,backend,threads,reps,median_ms,min_ms,"
         "gbps,pct_of_read,matches,correct\n";
  for (const MultiBenchRow& r : rows) {
    out << '"' << r.device << "\"," << r.corpus << ',' << (r.synthetic ? 1 : 0) << ',' << r.n << ',' << r.kind << ','
        << r.patterns << ',' << r.min_m << ',' << r.max_m << ',' << r.contender << ',' << r.backend << ',' << r.threads
        << ',' << r.time.reps << ',' << fixed(r.time.median_ms, 5) << ',' << fixed(r.time.min_ms, 5) << ','
        << fixed(r.gbps, 4) << ',' << fixed(r.pct_of_read, 2) << ',' << r.matches << ',' << (r.correct ? 1 : 0) << '\n';
  }
}

enum class Plot { drawn, not_drawn, failed };

// Draws `png` from `csv`. Without the script, python3 or matplotlib, says so in one line on stderr, with
// how to get them (not_drawn); a script that fails says so too (failed).
Plot draw_plot(const std::string& csv, const std::string& png) {
  const std::string script = plot_script();
  if (!fs::is_regular_file(script)) {
    std::cerr << "cudamatch: no plot drawn: plot_bench.py is not at " << script
              << " (it is installed with cudamatch)\n";
    return Plot::not_drawn;
  }
  const int probe =
      run_program({"python3", "-c", "import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot"}, true);
  if (probe != 0) {
    std::cerr << "cudamatch: no plot drawn: "
              << (probe < 0 ? "python3 is not installed" : "python3 cannot import matplotlib")
              << "; to get it: apt-get install python3-matplotlib (or pip install matplotlib), then: python3 " << script
              << ' ' << csv << ' ' << png << '\n';
    return Plot::not_drawn;
  }
  if (const int exit = run_program({"python3", script, csv, png}, false); exit != 0) {
    std::cerr << "cudamatch: the plot was not drawn: python3 " << script << " exited with status " << exit << '\n';
    return Plot::failed;
  }
  return Plot::drawn;
}

}  // namespace

BenchOutputs::BenchOutputs(const std::string& folder, const std::string& csv, const std::string& plot,
                           const std::string& name)
    : report_(nullptr) {
  // Every file is tried now, so that a wrong path stops the run before it starts (and before the folder is made).
  if (!csv.empty() && !std::ofstream(csv, std::ios::app)) {
    throw UsageError("cannot write '" + csv + "': " + std::strerror(errno));
  }
  if (const fs::path parent = fs::path(plot).parent_path(); !parent.empty() && !fs::is_directory(parent)) {
    throw UsageError("cannot write '" + plot + "': there is no folder '" + parent.string() + "'");
  }
  folder_ = create_folder(folder, name);
  table_ = (fs::path(folder_) / "bench.txt").string();
  csv_ = csv.empty() ? (fs::path(folder_) / "bench.csv").string() : csv;
  plot_ = plot.empty() ? (fs::path(folder_) / "bench.png").string() : plot;
  table_file_.open(table_);
  if (!table_file_) throw UsageError("cannot write '" + table_ + "': " + std::strerror(errno));
  tee_ = std::make_unique<TeeBuffer>(std::cout.rdbuf(), table_file_.rdbuf());
  report_.rdbuf(tee_.get());  // and clears the bad state of a stream without a buffer
}

int BenchOutputs::finish(const std::vector<BenchRow>& rows) { return finish_with(rows); }

int BenchOutputs::finish(const std::vector<MultiBenchRow>& rows) { return finish_with(rows); }

template <class Row>
int BenchOutputs::finish_with(const std::vector<Row>& rows) {
  table_file_.close();
  std::ofstream csv(csv_);
  write_csv(csv, rows);
  csv.close();
  if (!report_ || !table_file_ || !csv)
    throw std::runtime_error("could not write the results to " + folder_ + " (disk full?)");
  const Plot plot = draw_plot(csv_, plot_);
  std::cout << "table: " << table_ << "\ncsv: " << csv_ << '\n';
  if (plot == Plot::drawn) std::cout << "plot: " << plot_ << '\n';
  std::cout << "results: " << as_folder(folder_) << std::endl;
  return plot == Plot::failed ? kExitTrouble : kExitOk;
}

}  // namespace cudamatch::cli
