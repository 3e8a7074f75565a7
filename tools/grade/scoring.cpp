#include "scoring.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <regex>

#include "text.hpp"

namespace cudamatch::grade {

namespace {

bool positive(const std::optional<double>& value) { return value && std::isfinite(*value) && *value > 0; }

PerformanceScore nothing(std::string reason, std::string details = "") {
  return PerformanceScore{0.0, std::nullopt, std::move(reason), std::move(details)};
}

std::string cases_phrase(std::size_t count) {
  return count == 1 ? "1 case" : "median of " + std::to_string(count) + " cases";
}

PerformanceScore against_baseline(const PerformanceCheck& check, const std::vector<const DriverRow*>& rows,
                                  const DriverRun& run) {
  std::vector<double> ratios;
  std::string details;
  for (const DriverRow* row : rows) {
    const DriverRow* base = run.find(row->case_id, check.baseline);
    if (base == nullptr) {
      details += row->case_label + ": no " + check.baseline + " row, case left out\n";
      continue;
    }
    if (!base->valid)
      return nothing(check.baseline + " gave a wrong result on " + row->case_label + ": no speedup over it counts");
    if (!positive(base->median_ms)) return nothing(check.baseline + " has no positive time on " + row->case_label);
    const double r = *base->median_ms / *row->median_ms;
    ratios.push_back(r);
    details += row->case_label + ": " + check.baseline + " " + format_number(*base->median_ms, 4) + " ms / " +
               check.version + " " + format_number(*row->median_ms, 4) + " ms = " + format_number(r) + "x\n";
  }
  if (ratios.empty())
    return nothing("no case has both a " + check.version + " and a " + check.baseline + " row", details);
  const double r = median(ratios);
  return PerformanceScore{linear_fraction(r, check.floor, check.full_at), r,
                          check.version + " is " + format_number(r) + "x " + check.baseline + " (" +
                              cases_phrase(ratios.size()) + "): none at <= " + format_number(check.floor) +
                              "x, full at >= " + format_number(check.full_at) + "x",
                          details};
}

// A floor version's share is raised by this factor: within 10% of it is the ceilings' noise, not
// progress (the speedup items' floor of 1.1x, for the same reason). The H100 graded a v3 that is v0
// at 1.01x v0's share.
constexpr double kFloorVersionMargin = 1.1;

PerformanceScore against_ceiling(const PerformanceCheck& check, const std::vector<const DriverRow*>& rows,
                                 const DriverRun& run) {
  const auto ceiling = run.ceilings_gbps.find(check.ceiling);
  if (ceiling == run.ceilings_gbps.end() || !(ceiling->second > 0)) {
    return nothing("the driver measured no \"" + check.ceiling + "\" ceiling");
  }
  std::vector<double> ratios, floor_ratios;
  std::string details;
  for (const DriverRow* row : rows) {
    if (!positive(row->gbps)) return nothing(check.version + " has no bandwidth on " + row->case_label);
    const double r = *row->gbps / ceiling->second;
    ratios.push_back(r);
    details += row->case_label + ": " + format_number(*row->gbps, 1) + " GB/s of " + format_number(ceiling->second, 1) +
               " GB/s (" + check.ceiling + ") = " + format_number(r, 3);
    if (const DriverRow* base = check.floor_version.empty() ? nullptr : run.find(row->case_id, check.floor_version)) {
      if (!base->valid || !positive(base->gbps)) {
        return nothing(check.floor_version + " gave no valid bandwidth on " + row->case_label +
                       ": no floor to score above");
      }
      floor_ratios.push_back(*base->gbps / ceiling->second);
      details += "; " + check.floor_version + " " + format_number(floor_ratios.back(), 3);
    }
    details += "\n";
  }
  const double r = median(ratios);
  const double floor =
      floor_ratios.empty() ? check.floor : std::max(check.floor, kFloorVersionMargin * median(floor_ratios));
  return PerformanceScore{linear_fraction(r, floor, check.full_at), r,
                          check.version + " reaches " + format_number(r, 3) + " of the " + check.ceiling +
                              " ceiling (" + cases_phrase(ratios.size()) + "): none at <= " + format_number(floor, 3) +
                              (floor_ratios.empty() ? "" : " (1.1x " + check.floor_version + "'s share)") +
                              ", full at >= " + format_number(check.full_at, 3),
                          details};
}

// nullopt (and why) when the reference run cannot score every case.
std::optional<PerformanceScore> against_reference(const PerformanceCheck& check,
                                                  const std::vector<const DriverRow*>& rows, const DriverRun& reference,
                                                  std::string& why_not) {
  std::vector<double> fractions;
  std::vector<double> slowdowns;
  std::string details;
  for (const DriverRow* row : rows) {
    const DriverRow* ref = reference.find(row->case_id, check.version);
    if (ref == nullptr) {
      why_not = "the reference run has no " + check.version + " row for " + row->case_label;
      return std::nullopt;
    }
    if (!ref->valid || !positive(ref->median_ms)) {
      why_not = "the reference's " + check.version + " on " + row->case_label + " is not valid or not timed";
      return std::nullopt;
    }
    const double fraction = reference_fraction(*row->median_ms, *ref->median_ms);
    fractions.push_back(fraction);
    slowdowns.push_back(*row->median_ms / *ref->median_ms);
    details += row->case_label + ": T " + format_number(*row->median_ms, 4) + " ms, T_ref " +
               format_number(*ref->median_ms, 4) + " ms, T/T_ref " + format_number(slowdowns.back()) + ": " +
               format_number(fraction, 3) + "\n";
  }
  return PerformanceScore{median(fractions), 1.0 / median(slowdowns),
                          check.version + " takes " + format_number(median(slowdowns)) + "x the reference's time (" +
                              cases_phrase(fractions.size()) + "): full at <= 1.2x, 1.2 T_ref/T up to 10x, none beyond",
                          details};
}

// The pattern length of a case whose id ends in "-m<m>" ("e-coli-m16", "m16"), or nullopt.
std::optional<double> pattern_length(const std::string& case_id) {
  static const std::regex m_suffix(R"((^|-)m(\d+)$)");
  std::smatch match;
  if (!std::regex_search(case_id, match, m_suffix)) return std::nullopt;
  return std::stod(match[2].str());
}

std::string bound_violation(const DriverRow& row, const DriverRun& run, const Bound& bound) {
  if (!bound.row.empty()) {
    const DriverRow* limit = run.find(row.case_id, bound.row);
    if (limit == nullptr || !positive(limit->median_ms) || !positive(row.median_ms)) {
      return "the bound cannot be checked: no timed \"" + bound.row + "\" row on " + row.case_label;
    }
    const double speed = *limit->median_ms / *row.median_ms;
    if (speed <= kNoise) return "";
    return row.id + " on " + row.case_label + " is " + format_number(speed) + "x as fast as " + bound.row +
           " (at most " + format_number(kNoise) + "x)";
  }
  const auto ceiling = run.ceilings_gbps.find(bound.ceiling);
  if (ceiling == run.ceilings_gbps.end() || !(ceiling->second > 0) || !positive(row.gbps)) {
    return "the bound cannot be checked: no \"" + bound.ceiling + "\" ceiling or no bandwidth of " + row.id + " on " +
           row.case_label;
  }
  double skip = 1.0;
  if (bound.stride != "1") {
    const auto m = pattern_length(row.case_id);
    if (!m) {
      return "the bound's stride \"" + bound.stride + "\" needs a case id ending in -m<length>, not \"" + row.case_id +
             "\"";
    }
    skip = std::max(1.0, (*m + (bound.stride == "m+1" ? 1.0 : 0.0)) / 32.0);
  }
  const double share = *row.gbps / ceiling->second;
  if (share <= kNoise * skip) return "";
  return row.id + " on " + row.case_label + " runs at " + format_number(share) + "x the " + bound.ceiling +
         " bandwidth (at most " + format_number(kNoise * skip) + "x" +
         (skip > 1.0 ? ", reading one 32-byte sector per " + bound.stride + " bytes" : "") + ")";
}

}  // namespace

std::string implausibility(const DriverRow& row, const DriverRun& run, const std::vector<Bound>& bounds) {
  if (run.launch_floor_ms && positive(row.median_ms) && *row.median_ms * kNoise < *run.launch_floor_ms) {
    return row.id + " on " + row.case_label + " took " + format_number(*row.median_ms * 1e3, 3) +
           " us, less than one empty kernel launch (" + format_number(*run.launch_floor_ms * 1e3, 3) + " us)";
  }
  for (const Bound& bound : bounds) {
    if (std::string why = bound_violation(row, run, bound); !why.empty()) return why;
  }
  return "";
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

double linear_fraction(double r, double floor, double full_at) {
  if (!(r > floor)) return 0.0;
  if (r >= full_at) return 1.0;
  return (r - floor) / (full_at - floor);
}

double reference_fraction(double t_ms, double t_ref_ms) {
  if (!(t_ms > 0) || !(t_ref_ms > 0)) return 0.0;
  if (t_ms <= 1.2 * t_ref_ms) return 1.0;
  if (t_ms > 10.0 * t_ref_ms) return 0.0;
  return 1.2 * t_ref_ms / t_ms;
}

PerformanceScore score_performance(const PerformanceCheck& check, const std::vector<Bound>& bounds,
                                   const DriverRun& student, const DriverRun* reference) {
  std::vector<const DriverRow*> rows;
  for (const auto& row : student.rows) {
    if (row.id == check.version) rows.push_back(&row);
  }
  if (rows.empty()) {
    return nothing("the driver's results have no " + check.version + " row (rows: " + join(student.ids(), ", ") + ")");
  }
  for (const DriverRow* row : rows) {
    if (!row->valid) return nothing(check.version + " gave a wrong result on " + row->case_label);
    if (!positive(row->median_ms)) {
      return nothing(check.version + " has no positive time on " + row->case_label + ": not a measurement");
    }
    for (const DriverRow* scored :
         {row, check.baseline.empty() ? nullptr : student.find(row->case_id, check.baseline),
          check.floor_version.empty() ? nullptr : student.find(row->case_id, check.floor_version)}) {
      if (scored == nullptr) continue;
      if (const std::string why = implausibility(*scored, student, bounds); !why.empty()) {
        return nothing("implausible: " + why + "; results replayed or not computed?");
      }
    }
  }
  std::string fallback;
  if (reference != nullptr) {
    if (auto score = against_reference(check, rows, *reference, fallback)) return *score;
  }
  PerformanceScore score =
      check.baseline.empty() ? against_ceiling(check, rows, student) : against_baseline(check, rows, student);
  if (!fallback.empty()) score.reason = fallback + ", so by the rubric's formula: " + score.reason;
  return score;
}

TestsScore score_tests(double points, std::size_t listed, std::size_t passed, std::size_t not_run) {
  if (listed == 0) return TestsScore{};
  const double each = points / static_cast<double>(listed);
  return TestsScore{each * static_cast<double>(passed), each * static_cast<double>(listed - not_run)};
}

}  // namespace cudamatch::grade
