// The table every bandwidth-bound lesson driver prints: one row per kernel version, its median time,
// effective bandwidth, and that bandwidth as a share of the ceilings measured in the same run.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "common/ceilings.hpp"
#include "common/device_info.hpp"
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
  explicit BandwidthReport(const RunContext& context);
  // `bytes`: what the version must move between the GPU and DRAM (reads + writes).
  void add(const std::string& version, const TimingStats& time, std::uint64_t bytes, const std::string& note = "");
  void print(std::ostream& out) const;
  // The effective bandwidth of the row named `version`, GB/s (0 when there is none).
  double gbps(const std::string& version) const;

 private:
  const RunContext& context_;
  Table table_;
  std::vector<std::pair<std::string, double>> gbps_;
};

}  // namespace cudamatch
