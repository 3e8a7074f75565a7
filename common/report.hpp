// The table every bandwidth-bound lesson driver prints: one row per kernel version, its median time,
// effective bandwidth, and that bandwidth as a share of the ceilings measured in the same run; and
// the same rows for the driver's results file (common/results_json.hpp).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "common/ceilings.hpp"
#include "common/device_info.hpp"
#include "common/results_json.hpp"
#include "common/table.hpp"
#include "common/timing.hpp"

namespace cudamatch {

// Measures the ceilings of the current device and prints them as the heading of a lesson's results.
struct RunContext {
  DeviceInfo device;
  Ceilings ceilings;
};
RunContext measure_run_context(std::ostream& out);

class BandwidthReport {
 public:
  // `input`: what every version is measured on, e.g. {"8192x8192", "8192 x 8192"} (the rows' case).
  BandwidthReport(const RunContext& context, ResultCase input);
  // `id`: the row's stable id (results_json.hpp), `label`: the name the table prints; `bytes`: what
  // the version must move between the GPU and DRAM (reads + writes); `valid`: its result was checked
  // before and after timing and was right.
  void add(const std::string& id, const std::string& label, const TimingStats& time, std::uint64_t bytes, bool valid,
           const std::string& note = "");
  void print(std::ostream& out) const;
  // The effective bandwidth of the row `id`, GB/s (0 when there is none).
  double gbps(const std::string& id) const;
  // Writes the rows with the run's device and ceilings to `json_path` (nothing when it is empty).
  void save(const std::string& json_path, const std::string& lesson) const;

 private:
  const RunContext& context_;
  ResultCase input_;
  Table table_;
  std::vector<ResultRow> rows_;
};

}  // namespace cudamatch
