#include "common/report.hpp"

#include <ostream>
#include <utility>

#include "common/bandwidth.hpp"

namespace cudamatch {

RunContext measure_run_context(std::ostream& out) {
  RunContext context;
  context.device = query_device();
  context.ceilings = measure_ceilings(context.device);
  const Ceilings& c = context.ceilings;
  out << context.device.name << " (" << context.device.sm_count << " SMs, "
      << fixed(static_cast<double>(context.device.l2_bytes) / kMiB, 0)
      << " MiB L2); ceilings measured now: theoretical " << fixed(c.theoretical_gbps, 0) << " GB/s, device copy "
      << fixed(c.device_copy_gbps, 0) << " GB/s, device read " << fixed(c.device_read_gbps, 0)
      << " GB/s; one empty kernel launch " << fixed(1000.0 * c.launch_floor_ms, 1) << " us\n";
  return context;
}

BandwidthReport::BandwidthReport(const RunContext& context, ResultCase input)
    : context_(context),
      input_(std::move(input)),
      table_({"version", "median ms", "min ms", "GB/s", "% of copy", "note"}) {}

void BandwidthReport::add(const std::string& id, const std::string& label, const TimingStats& time, std::uint64_t bytes,
                          bool valid, const std::string& note) {
  const double rate = gb_per_s(bytes, time.median_ms);
  rows_.push_back({input_, id, label, time.median_ms, rate, valid});
  table_.add_row({label, fixed(time.median_ms, 4), fixed(time.min_ms, 4), fixed(rate, 1),
                  fixed(percent_of(rate, context_.ceilings.device_copy_gbps), 1), note});
}

void BandwidthReport::print(std::ostream& out) const { table_.print(out); }

double BandwidthReport::gbps(const std::string& id) const {
  for (const ResultRow& row : rows_) {
    if (row.id == id) return *row.gbps;
  }
  return 0.0;
}

void BandwidthReport::save(const std::string& json_path, const std::string& lesson) const {
  DriverResults results(lesson, context_.device, context_.ceilings);
  results.add(rows_);
  results.save(json_path);
}

}  // namespace cudamatch
