#include "ncu_report.hpp"

#include <cstdlib>
#include <sstream>
#include <vector>

#include "text.hpp"

namespace cudamatch::grade {

namespace {

// One CSV line: fields separated by ',', optionally quoted with "" for a quote inside.
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

int column(const std::vector<std::string>& header, const std::string& name) {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

std::optional<double> parse_value(const std::string& text) {
  std::string digits;
  for (char c : text) {
    if (c != ',' && c != ' ') digits += c;
  }
  if (digits.empty()) return std::nullopt;
  char* end = nullptr;
  const double value = std::strtod(digits.c_str(), &end);
  if (end == nullptr || *end != '\0') return std::nullopt;
  return value;
}

}  // namespace

NcuValue read_ncu_csv(const std::string& csv, const std::string& metric) {
  NcuValue result;
  std::istringstream lines(csv);
  std::vector<std::string> header;
  int kernel_column = -1, name_column = -1, value_column = -1;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line.rfind("==", 0) == 0) continue;  // ==PROF==, ==WARNING== lines
    std::vector<std::string> fields = csv_fields(line);
    if (header.empty()) {
      if (fields.front() != "ID") continue;
      header = fields;
      kernel_column = column(header, "Kernel Name");
      name_column = column(header, "Metric Name");
      value_column = column(header, "Metric Value");
      if (name_column < 0 || value_column < 0) {
        result.error = "ncu's CSV has no \"Metric Name\" and \"Metric Value\" columns";
        return result;
      }
      continue;
    }
    if (fields.size() != header.size() || fields[static_cast<std::size_t>(name_column)] != metric) continue;
    const std::string& text = fields[static_cast<std::size_t>(value_column)];
    const auto value = parse_value(text);
    if (!value) {
      result.error = "ncu reported \"" + text + "\" for " + metric;
      return result;
    }
    result.found = true;
    result.value = *value;
    if (kernel_column >= 0) result.kernel = fields[static_cast<std::size_t>(kernel_column)];
    return result;
  }
  result.error = header.empty() ? "ncu profiled no kernel (no CSV report in its output)"
                                : "ncu's report has no value of " + metric;
  return result;
}

std::string ncu_unusable_reason(const std::string& output) {
  if (output.find("ERR_NVGPUCTRPERM") != std::string::npos) {
    return "ncu may not read the GPU performance counters here (ERR_NVGPUCTRPERM: see "
           "https://developer.nvidia.com/ERR_NVGPUCTRPERM)";
  }
  for (const char* no_device :
       {"No CUDA-capable device", "no CUDA-capable device", "no CUDA device was found", "ERR_NVGPU_NOT_SUPPORTED"}) {
    if (output.find(no_device) != std::string::npos) return std::string("ncu: ") + no_device;
  }
  return "";
}

NcuJudgement judge_ncu(const NcuCheck& check, double value, std::optional<double> relative) {
  const bool relative_check = !check.relative_to_kernel.empty();
  const double scale = relative_check ? relative.value_or(0.0) : 1.0;
  const std::string of = relative_check ? " x " + format_number(scale, 3) + " (" + check.relative_to_kernel + ")" : "";
  NcuJudgement judgement{true, check.kernel + ": " + check.metric + " = " + format_number(value, 3)};
  // A limit relative to a kernel that measured nothing (a starter's stub, or a kernel that returns at
  // once) compares nothing: 0 <= 0 must not pass.
  if (relative_check && !(scale > 0.0)) {
    judgement.passed = false;
    judgement.reason += ", but " + check.relative_to_kernel + " (the reference) measured " + format_number(scale, 3) +
                        ": no ratio to judge";
    return judgement;
  }
  if (check.at_most) {
    const double limit = *check.at_most * scale;
    const bool ok = value <= limit;
    judgement.passed = judgement.passed && ok;
    judgement.reason += std::string(ok ? ", within" : ", above") + " at most " + format_number(*check.at_most, 4) + of +
                        " = " + format_number(limit, 3);
  }
  if (check.at_least) {
    const double limit = *check.at_least * scale;
    const bool ok = value >= limit;
    judgement.passed = judgement.passed && ok;
    judgement.reason += std::string(ok ? ", within" : ", below") + " at least " + format_number(*check.at_least, 4) +
                        of + " = " + format_number(limit, 3);
  }
  return judgement;
}

}  // namespace cudamatch::grade
