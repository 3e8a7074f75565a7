// The results file of a lesson driver (`--json FILE`): the device, the ceilings measured in the same
// run, and one row per version and input with the figures the driver's table prints. The autograder
// reads it, and so does the renderer of the figures the docs quote (the format is in docs/grading.md):
//   {"lesson": "03-bank-conflicts",
//    "device": {"name": "NVIDIA H200", "compute_capability": "9.0"},
//    "ceilings_gbps": {"read": 4481.2, "copy": 4229.9, "theoretical": 4814.0},
//    "launch_floor_ms": 0.0042,
//    "rows": [{"case": "4096x4096", "case_label": "4096 x 4096", "id": "padded", "label": "padded 32x33",
//              "median_ms": 0.1234, "gbps": 3456.7, "valid": true}]}
// Every row and every case has a stable id and a display label. The ids ("case", "id") are what
// readers match on: short, [a-z0-9_-], the same whatever the GPU (rubric items name rows by them);
// a row's id is unique among the rows of its case. The labels ("case_label", "label") are exactly
// what the driver's table prints, for people, and may change with the wording or the GPU.
// "launch_floor_ms" is the median time of one empty kernel launch between CUDA events, measured in the
// same run (Ceilings::launch_floor_ms, common/ceilings.hpp): no row's median_ms can honestly be below it.
// A figure a row does not have, or one that is not finite, is written as null.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "common/ceilings.hpp"
#include "common/device_info.hpp"
#include "common/result_id.hpp"

namespace cudamatch {

// `text` made an id: lower case, every run of characters outside [a-z0-9] one '-', none at either
// end ("E.coli" -> "e-coli", "bible.txt" -> "bible-txt").
std::string result_id_of(const std::string& text);

// The input rows are measured on: the rows of one case are comparable.
struct ResultCase {
  std::string id;     // "case", e.g. "4096x4096", "e-coli-m16"
  std::string label;  // "case_label", e.g. "4096 x 4096", "E.coli m=16"
};

struct ResultRow {
  ResultCase input;
  std::string id;                   // "id", e.g. "padded": what readers match on
  std::string label;                // "label", e.g. "padded 32x33": exactly the name the driver's table prints
  std::optional<double> median_ms;  // the median time of the table; empty when it was not measured
  std::optional<double> gbps;       // the effective bandwidth of the table; empty when it has none
  std::optional<bool> valid;        // checked before and after timing, and right; empty: not checked
};

class DriverResults {
 public:
  // Starts with the read, copy and theoretical bandwidth of `ceilings`, and its launch floor.
  DriverResults(std::string lesson, const DeviceInfo& device, const Ceilings& ceilings);

  // A further ceiling the lesson measures, e.g. "h2d_pinned".
  void add_ceiling(const std::string& name, double gbps);
  // Throws std::invalid_argument (a bug in the driver) for an id that is not one (is_result_id), a
  // row id used twice in one case, or one case id with two labels.
  void add(ResultRow row);
  void add(const std::vector<ResultRow>& rows);

  void write(std::ostream& out) const;
  // Writes the file at `path`; does nothing when `path` is empty (the driver ran without --json).
  // Throws std::runtime_error when the file cannot be written.
  void save(const std::string& path) const;

 private:
  std::string lesson_;
  std::string device_name_;
  std::string compute_capability_;
  std::vector<std::pair<std::string, double>> ceilings_;
  double launch_floor_ms_;
  std::vector<ResultRow> rows_;
};

}  // namespace cudamatch
