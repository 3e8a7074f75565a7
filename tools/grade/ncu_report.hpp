// Reading Nsight Compute's CSV output (ncu --csv --print-units base) and judging an ncu item.
#pragma once

#include <optional>
#include <string>

#include "rubric.hpp"

namespace cudamatch::grade {

struct NcuValue {
  bool found = false;
  double value = 0.0;
  std::string kernel;  // the profiled kernel's name as ncu printed it
  std::string error;   // why there is no value
};

// The value of `metric` in the first profiled launch of ncu's CSV report (thousands separators allowed).
NcuValue read_ncu_csv(const std::string& csv, const std::string& metric);

// Why ncu could not measure at all (counters not permitted, no device), or "" when nothing says so.
std::string ncu_unusable_reason(const std::string& output);

struct NcuJudgement {
  bool passed = false;
  std::string reason;
};

// value <= at_most (x relative) and value >= at_least (x relative); `relative` is the metric of
// relative_to_kernel when the check has one, and a relative check fails when it is missing or not above 0.
NcuJudgement judge_ncu(const NcuCheck& check, double value, std::optional<double> relative);

}  // namespace cudamatch::grade
