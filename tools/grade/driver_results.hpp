// The results file a lesson driver writes with --json FILE (docs/grading.md, common/results_json.hpp):
// the ceilings measured in the run and one row per input case and kernel version. Rows are matched on
// their ids, the case's and the row's, which rubrics name; the labels are what the driver printed.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cudamatch::grade {

struct DriverRow {
  std::string case_id;     // "case", e.g. "e-coli-m16"
  std::string case_label;  // "case_label" ("E.coli m=16"); the id when the file has none
  std::string id;          // "id", e.g. "v3", "padded"
  std::string label;       // "label" ("padded 32x33"); the id when the file has none
  std::optional<double> median_ms;
  std::optional<double> gbps;
  bool valid = false;
};

struct DriverRun {
  std::string lesson;
  std::map<std::string, double> ceilings_gbps;
  std::optional<double> launch_floor_ms;  // one empty kernel between CUDA events, measured in the run
  std::vector<DriverRow> rows;

  const DriverRow* find(const std::string& case_id, const std::string& id) const;
  std::vector<std::string> ids() const;  // the rows' ids, in the order they first appear
};

// Parses a driver's --json text; throws std::runtime_error saying what is malformed.
DriverRun parse_driver_results(const std::string& text);

// Best of several runs of the same driver: per case and row id the smallest median time and the
// largest bandwidth, valid only when every run found it valid; per ceiling the largest measurement,
// and the smallest launch floor.
DriverRun best_of(const std::vector<DriverRun>& runs);

}  // namespace cudamatch::grade
