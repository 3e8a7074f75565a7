#include "driver_results.hpp"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace cudamatch::grade {

namespace {

using nlohmann::json;

std::optional<double> optional_number(const json& row, const char* key, std::size_t index) {
  if (!row.contains(key) || row.at(key).is_null()) return std::nullopt;
  if (!row.at(key).is_number()) {
    throw std::runtime_error("row " + std::to_string(index + 1) + ": \"" + key + "\" is not a number");
  }
  return row.at(key).get<double>();
}

std::string required_text(const json& row, const char* key, std::size_t index) {
  if (!row.contains(key) || !row.at(key).is_string()) {
    throw std::runtime_error("row " + std::to_string(index + 1) + " has no \"" + key + "\" string");
  }
  return row.at(key).get<std::string>();
}

std::string text_or(const json& row, const char* key, const std::string& otherwise) {
  return row.contains(key) && row.at(key).is_string() ? row.at(key).get<std::string>() : otherwise;
}

}  // namespace

const DriverRow* DriverRun::find(const std::string& case_id, const std::string& id) const {
  for (const auto& row : rows) {
    if (row.case_id == case_id && row.id == id) return &row;
  }
  return nullptr;
}

std::vector<std::string> DriverRun::ids() const {
  std::vector<std::string> ids;
  for (const auto& row : rows) {
    if (std::find(ids.begin(), ids.end(), row.id) == ids.end()) ids.push_back(row.id);
  }
  return ids;
}

DriverRun parse_driver_results(const std::string& text) {
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& e) {
    throw std::runtime_error(std::string("not valid JSON: ") + e.what());
  }
  if (!document.is_object() || !document.contains("rows") || !document.at("rows").is_array()) {
    throw std::runtime_error("no \"rows\" array");
  }
  DriverRun run;
  if (document.contains("lesson") && document.at("lesson").is_string())
    run.lesson = document.at("lesson").get<std::string>();
  if (document.contains("ceilings_gbps") && document.at("ceilings_gbps").is_object()) {
    for (const auto& [name, value] : document.at("ceilings_gbps").items()) {
      if (value.is_number()) run.ceilings_gbps[name] = value.get<double>();
    }
  }
  if (document.contains("launch_floor_ms") && document.at("launch_floor_ms").is_number()) {
    run.launch_floor_ms = document.at("launch_floor_ms").get<double>();
  }
  const json& rows = document.at("rows");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const json& row = rows[i];
    if (!row.is_object()) throw std::runtime_error("row " + std::to_string(i + 1) + " is not an object");
    DriverRow parsed;
    parsed.case_id = required_text(row, "case", i);
    parsed.case_label = text_or(row, "case_label", parsed.case_id);
    parsed.id = required_text(row, "id", i);
    parsed.label = text_or(row, "label", parsed.id);
    parsed.median_ms = optional_number(row, "median_ms", i);
    parsed.gbps = optional_number(row, "gbps", i);
    // A row that does not say it was validated is not trusted.
    parsed.valid = row.contains("valid") && row.at("valid").is_boolean() && row.at("valid").get<bool>();
    run.rows.push_back(parsed);
  }
  return run;
}

DriverRun best_of(const std::vector<DriverRun>& runs) {
  DriverRun best;
  for (const auto& run : runs) {
    if (best.lesson.empty()) best.lesson = run.lesson;
    for (const auto& [name, gbps] : run.ceilings_gbps) {
      auto [it, inserted] = best.ceilings_gbps.emplace(name, gbps);
      if (!inserted) it->second = std::max(it->second, gbps);
    }
    if (run.launch_floor_ms && (!best.launch_floor_ms || *run.launch_floor_ms < *best.launch_floor_ms)) {
      best.launch_floor_ms = run.launch_floor_ms;
    }
    for (const auto& row : run.rows) {
      auto it = std::find_if(best.rows.begin(), best.rows.end(),
                             [&](const DriverRow& kept) { return kept.case_id == row.case_id && kept.id == row.id; });
      if (it == best.rows.end()) {
        best.rows.push_back(row);
        continue;
      }
      if (row.median_ms && (!it->median_ms || *row.median_ms < *it->median_ms)) it->median_ms = row.median_ms;
      if (row.gbps && (!it->gbps || *row.gbps > *it->gbps)) it->gbps = row.gbps;
      it->valid = it->valid && row.valid;
    }
  }
  return best;
}

}  // namespace cudamatch::grade
