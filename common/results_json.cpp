#include "common/results_json.hpp"

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <stdexcept>

namespace cudamatch {

namespace {

// ordered_json keeps the keys in the order of the format, which is easier to read than sorted.
using Json = nlohmann::ordered_json;

Json number_or_null(const std::optional<double>& value) {
  if (!value || !std::isfinite(*value)) return nullptr;
  return *value;
}

Json flag_or_null(const std::optional<bool>& value) {
  if (!value) return nullptr;
  return *value;
}

}  // namespace

DriverResults::DriverResults(std::string lesson, const DeviceInfo& device, const Ceilings& ceilings)
    : lesson_(std::move(lesson)),
      device_name_(device.name),
      compute_capability_(std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor)),
      ceilings_{{"read", ceilings.device_read_gbps},
                {"copy", ceilings.device_copy_gbps},
                {"theoretical", ceilings.theoretical_gbps}},
      launch_floor_ms_(ceilings.launch_floor_ms) {}

void DriverResults::add_ceiling(const std::string& name, double gbps) { ceilings_.emplace_back(name, gbps); }

void DriverResults::add(ResultRow row) { rows_.push_back(std::move(row)); }

void DriverResults::add(const std::vector<ResultRow>& rows) { rows_.insert(rows_.end(), rows.begin(), rows.end()); }

void DriverResults::write(std::ostream& out) const {
  Json ceilings = Json::object();
  for (const auto& [name, gbps] : ceilings_) ceilings[name] = number_or_null(gbps);
  Json rows = Json::array();
  for (const ResultRow& row : rows_) {
    rows.push_back({{"case", row.input},
                    {"version", row.version},
                    {"median_ms", number_or_null(row.median_ms)},
                    {"gbps", number_or_null(row.gbps)},
                    {"valid", flag_or_null(row.valid)}});
  }
  const Json document = {{"lesson", lesson_},
                         {"device", {{"name", device_name_}, {"compute_capability", compute_capability_}}},
                         {"ceilings_gbps", ceilings},
                         {"launch_floor_ms", number_or_null(launch_floor_ms_)},
                         {"rows", rows}};
  // Bytes of a name that are not valid UTF-8 become U+FFFD instead of failing the whole file.
  out << document.dump(2, ' ', false, Json::error_handler_t::replace) << '\n';
}

void DriverResults::save(const std::string& path) const {
  if (path.empty()) return;
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) throw std::runtime_error("cannot open the results file " + path + " for writing");
  write(file);
  file.close();
  if (!file) throw std::runtime_error("cannot write the results file " + path);
}

}  // namespace cudamatch
