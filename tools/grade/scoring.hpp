// The scoring formulas of docs/grading.md, as pure functions (no I/O): what a measured ratio, a set
// of test outcomes, or a time against the reference solution's is worth.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "driver_results.hpp"
#include "rubric.hpp"

namespace cudamatch::grade {

// The median; the mean of the two middle values for an even count. `values` must not be empty.
double median(std::vector<double> values);

// 0 at r <= floor, 1 at r >= full_at, linear in between (NaN scores 0).
double linear_fraction(double r, double floor, double full_at);

// The reference ratio: 1 at t <= 1.2 t_ref, 0 at t > 10 t_ref, 1.2 t_ref / t in between; 0 when
// either time is not positive (a time of 0 is a broken measurement, not a fast kernel).
double reference_fraction(double t_ms, double t_ref_ms);

struct PerformanceScore {
  double fraction = 0.0;
  std::optional<double> ratio;  // the measured ratio that was scored (the leaderboard's value)
  std::string reason;           // one line: the ratio and what it earned, or why it earned nothing
  std::string details;          // one line per case
};

// Why `row` of `run` is beyond what the hardware allows ("" when it is not): a time below one kernel
// launch (the run's launch floor), or a figure beyond one of `bounds` (rubric.hpp) by more than kNoise.
std::string implausibility(const DriverRow& row, const DriverRun& run, const std::vector<Bound>& bounds);

// Scores `check` on the student's best-of-3 run; a row it scores that is implausible scores 0. With a reference run, by
// the reference ratio (the median over cases of reference_fraction); when the reference lacks a case, by the rubric's
// own formula, which the reason then says.
PerformanceScore score_performance(const PerformanceCheck& check, const std::vector<Bound>& bounds,
                                   const DriverRun& student, const DriverRun* reference);

struct TestsScore {
  double score = 0.0;
  double max_score = 0.0;
};

// points x passed / listed; the test cases that did not run (no GPU) leave the maximum.
TestsScore score_tests(double points, std::size_t listed, std::size_t passed, std::size_t not_run);

}  // namespace cudamatch::grade
