// Where `cudamatch bench` leaves its results: a folder holding the report as printed (bench.txt), every
// measurement (bench.csv) and GB/s against the pattern length (bench.png, drawn by plot_bench.py with
// python3 and matplotlib), and the lines on stdout that say where each file is. The same for --multi, whose
// measurements are over pattern counts instead of pattern lengths (MultiBenchRow).
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "common/timing.hpp"

namespace cudamatch::cli {

// One measurement: one matcher on one corpus at one pattern length, over the patterns drawn.
struct BenchRow {
  std::string corpus;
  bool synthetic;
  std::size_t n;
  std::size_t m;
  std::string contender;
  std::string backend;
  std::string device;
  TimingStats time;  // per search, over the patterns
  double gbps;
  double pct_of_read;     // GPU rows: of the device read bandwidth measured at the start; else 0
  std::uint64_t matches;  // summed over the patterns
  bool correct;
  std::string alphabet;  // the corpus's alphabet class (dispatch.hpp)
  std::string chosen;    // an auto row's: the matcher the dispatch table picked; else empty
};

// One measurement of bench --multi: one matcher counting one set of patterns in one text.
struct MultiBenchRow {
  std::string corpus;
  bool synthetic;
  std::size_t n;
  std::string kind;       // "drawn" (from the corpus) or "absent" (random, never in the text)
  std::size_t patterns;   // in the set
  std::size_t min_m;      // the shortest pattern's length
  std::size_t max_m;      // the longest's
  std::string contender;  // "multi:v3", "aho-corasick", "hyperscan"
  std::string backend;
  std::string device;
  unsigned threads;  // host threads (CPU rows), 0 for the GPU's
  TimingStats time;  // per count of the whole set
  double gbps;
  double pct_of_read;     // GPU rows: of the device read bandwidth measured at the start; else 0
  std::uint64_t matches;  // every pattern's together
  bool correct;
};

class BenchOutputs {
 public:
  // `folder`: where the results go; empty: cudamatch-results/NAME-YYYYmmdd-HHMMSS (local time) under the
  // current directory, with -2, -3, ... appended when a run of the same second has it. `csv`, `plot`:
  // those two files elsewhere; empty: in the folder. Creates the folder (its parents too) and bench.txt;
  // throws UsageError, one line, when it cannot.
  BenchOutputs(const std::string& folder, const std::string& csv, const std::string& plot,
               const std::string& name = "bench");

  // Where the report goes: standard output, and bench.txt the same.
  std::ostream& report() { return report_; }

  // Writes the CSV and draws the plot, then prints on stdout where each file is, one line each, and last
  // "results: FOLDER/". Without python3 or matplotlib, one line on stderr says which plot was not drawn and
  // how to get it (the status is unchanged: kExitOk); a plot script that fails otherwise is kExitTrouble.
  int finish(const std::vector<BenchRow>& rows);
  int finish(const std::vector<MultiBenchRow>& rows);

 private:
  template <class Row>
  int finish_with(const std::vector<Row>& rows);

  std::string folder_;
  std::string table_;
  std::string csv_;
  std::string plot_;
  std::ofstream table_file_;
  std::unique_ptr<std::streambuf> tee_;  // writes to std::cout and table_file_
  std::ostream report_;
};

}  // namespace cudamatch::cli
