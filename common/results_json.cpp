#include "common/results_json.hpp"

#include <cctype>
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

bool is_lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

}  // namespace

std::string result_id_of(const std::string& text) {
  std::string id;
  bool separate = false;
  for (const char c : text) {
    const char lower = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (is_lower_alnum(lower)) {
      if (separate && !id.empty()) id += '-';
      id += lower;
      separate = false;
    } else {
      separate = true;
    }
  }
  return id;
}

DriverResults::DriverResults(std::string lesson, const DeviceInfo& device, const Ceilings& ceilings)
    : lesson_(std::move(lesson)),
      device_name_(device.name),
      compute_capability_(std::to_string(device.cc_major) + "." + std::to_string(device.cc_minor)),
      ceilings_{{"read", ceilings.device_read_gbps},
                {"copy", ceilings.device_copy_gbps},
                {"theoretical", ceilings.theoretical_gbps}},
      launch_floor_ms_(ceilings.launch_floor_ms) {}

void DriverResults::add_ceiling(const std::string& name, double gbps) { ceilings_.emplace_back(name, gbps); }

void DriverResults::add(ResultRow row) {
  if (!is_result_id(row.input.id) || !is_result_id(row.id)) {
    throw std::invalid_argument("results: \"" + row.input.id + "\" / \"" + row.id +
                                "\": a case's and a row's id are 1 to 64 characters of [a-z0-9_-]");
  }
  for (const ResultRow& earlier : rows_) {
    if (earlier.input.id != row.input.id) continue;
    if (earlier.input.label != row.input.label) {
      throw std::invalid_argument("results: case \"" + row.input.id + "\" has two labels, \"" + earlier.input.label +
                                  "\" and \"" + row.input.label + "\"");
    }
    if (earlier.id == row.id) {
      throw std::invalid_argument("results: row \"" + row.id + "\" twice in case \"" + row.input.id + "\"");
    }
  }
  rows_.push_back(std::move(row));
}

void DriverResults::add(const std::vector<ResultRow>& rows) {
  for (const ResultRow& row : rows) add(row);
}

void DriverResults::write(std::ostream& out) const {
  Json ceilings = Json::object();
  for (const auto& [name, gbps] : ceilings_) ceilings[name] = number_or_null(gbps);
  Json rows = Json::array();
  for (const ResultRow& row : rows_) {
    rows.push_back({{"case", row.input.id},
                    {"case_label", row.input.label},
                    {"id", row.id},
                    {"label", row.label},
                    {"median_ms", number_or_null(row.median_ms)},
                    {"gbps", number_or_null(row.gbps)},
                    {"valid", flag_or_null(row.valid)}});
  }
  const Json document = {{"lesson", lesson_},
                         {"device", {{"name", device_name_}, {"compute_capability", compute_capability_}}},
                         {"ceilings_gbps", ceilings},
                         {"launch_floor_ms", number_or_null(launch_floor_ms_)},
                         {"rows", rows}};
  // Bytes of a label that are not valid UTF-8 become U+FFFD instead of failing the whole file.
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
