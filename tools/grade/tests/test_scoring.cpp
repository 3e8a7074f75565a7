// The scoring formulas at and around their thresholds, and the totals when items do not run.
#include <catch2/catch.hpp>

#include "grade_report.hpp"
#include "scoring.hpp"

using namespace cudamatch::grade;

namespace {

// A row of case `case_id` whose labels are its ids.
DriverRow row(const std::string& case_id, const std::string& id, double ms, bool valid = true,
              std::optional<double> gbps = std::nullopt) {
  return DriverRow{case_id, case_id, id, id, ms, gbps, valid};
}

// A row of a matcher lesson's case "<corpus> m=<m>", whose id is "<corpus id>-m<m>".
DriverRow matcher_row(const std::string& corpus_id, const std::string& corpus, int m, const std::string& id, double ms,
                      std::optional<double> gbps = std::nullopt) {
  const std::string m_text = std::to_string(m);
  return DriverRow{corpus_id + "-m" + m_text, corpus + " m=" + m_text, id, id, ms, gbps, true};
}

PerformanceCheck speedup(double full_at, double floor = 1.0) {
  PerformanceCheck check;
  check.version = "v3";
  check.baseline = "v0";
  check.floor = floor;
  check.full_at = full_at;
  return check;
}

RubricItem item_of(double points) {
  RubricItem item;
  item.id = "i";
  item.name = "item";
  item.points = points;
  item.check = TestsCheck{"*"};
  return item;
}

}  // namespace

TEST_CASE("the linear formula: nothing at the floor, everything from full_at", "[scoring]") {
  CHECK(linear_fraction(1.0, 1.0, 4.0) == 0.0);
  CHECK(linear_fraction(0.5, 1.0, 4.0) == 0.0);
  CHECK(linear_fraction(1.0 + 1e-9, 1.0, 4.0) == Approx(0.0).margin(1e-8));
  CHECK(linear_fraction(2.5, 1.0, 4.0) == Approx(0.5));
  CHECK(linear_fraction(4.0 - 1e-9, 1.0, 4.0) == Approx(1.0).margin(1e-8));
  CHECK(linear_fraction(4.0, 1.0, 4.0) == 1.0);
  CHECK(linear_fraction(40.0, 1.0, 4.0) == 1.0);
  CHECK(linear_fraction(0.25, 0.0, 0.5) == Approx(0.5));
  CHECK(linear_fraction(std::nan(""), 0.0, 0.5) == 0.0);
}

TEST_CASE("the reference formula: full up to 1.2 T_ref, 1.2 T_ref / T up to 10 T_ref, then nothing", "[scoring]") {
  CHECK(reference_fraction(0.5, 1.0) == 1.0);
  CHECK(reference_fraction(1.2, 1.0) == 1.0);
  CHECK(reference_fraction(1.2 + 1e-9, 1.0) == Approx(1.0).margin(1e-8));
  CHECK(reference_fraction(2.4, 1.0) == Approx(0.5));
  CHECK(reference_fraction(10.0, 1.0) == Approx(0.12));
  CHECK(reference_fraction(10.0 + 1e-9, 1.0) == 0.0);
  CHECK(reference_fraction(100.0, 1.0) == 0.0);
  CHECK(reference_fraction(0.0, 1.0) == 0.0);  // T = 0 is a broken measurement, not a fast kernel
  CHECK(reference_fraction(1.0, 0.0) == 0.0);
}

TEST_CASE("median", "[scoring]") {
  CHECK(median({3.0}) == 3.0);
  CHECK(median({10.0, 2.0, 3.0}) == 3.0);
  CHECK(median({4.0, 1.0, 2.0, 3.0}) == 2.5);
}

TEST_CASE("a speedup over the baseline is the median over the cases", "[scoring]") {
  DriverRun run;
  run.rows = {row("a", "v0", 2.0), row("a", "v3", 1.0),  row("b", "v0", 3.0),
              row("b", "v3", 1.0), row("c", "v0", 10.0), row("c", "v3", 1.0)};
  const PerformanceScore score = score_performance(speedup(4.0), {}, run, nullptr);
  CHECK(score.fraction == Approx(2.0 / 3.0));  // r = 3 (median of 2, 3, 10): (3 - 1) / (4 - 1)
  CHECK_THAT(score.reason, Catch::Contains("3x v0") && Catch::Contains("median of 3 cases"));

  CHECK(score_performance(speedup(3.0), {}, run, nullptr).fraction == 1.0);       // r exactly at full_at
  CHECK(score_performance(speedup(5.0, 3.0), {}, run, nullptr).fraction == 0.0);  // r exactly at the floor
}

TEST_CASE("a wrong, missing or untimed row scores nothing", "[scoring]") {
  DriverRun run;
  run.rows = {row("a", "v0", 4.0), row("a", "v3", 1.0), row("b", "v0", 4.0), row("b", "v3", 1.0, false)};
  SECTION("the version is wrong in one case") {
    const auto score = score_performance(speedup(2.0), {}, run, nullptr);
    CHECK(score.fraction == 0.0);
    CHECK_THAT(score.reason, Catch::Contains("v3 gave a wrong result on b"));
  }
  SECTION("the baseline is wrong") {
    run.rows[3].valid = true;
    run.rows[0].valid = false;
    CHECK_THAT(score_performance(speedup(2.0), {}, run, nullptr).reason,
               Catch::Contains("v0 gave a wrong result on a"));
  }
  SECTION("the version is missing") {
    PerformanceCheck check = speedup(2.0);
    check.version = "v9";
    const auto score = score_performance(check, {}, run, nullptr);
    CHECK(score.fraction == 0.0);
    CHECK_THAT(score.reason, Catch::Contains("no v9 row") && Catch::Contains("v0, v3"));
  }
  SECTION("the baseline is missing in one case: that case is left out") {
    run.rows = {row("a", "v0", 4.0), row("a", "v3", 1.0), row("b", "v3", 1.0)};
    const auto score = score_performance(speedup(4.0), {}, run, nullptr);
    CHECK(score.fraction == 1.0);
    CHECK_THAT(score.details, Catch::Contains("b: no v0 row, case left out"));
  }
  SECTION("the baseline is missing in every case") {
    run.rows = {row("a", "v3", 1.0)};
    CHECK_THAT(score_performance(speedup(4.0), {}, run, nullptr).reason, Catch::Contains("no case has both"));
  }
  SECTION("a time of zero") {
    run.rows = {row("a", "v0", 4.0), row("a", "v3", 0.0)};
    const auto score = score_performance(speedup(2.0), {}, run, nullptr);
    CHECK(score.fraction == 0.0);
    CHECK_THAT(score.reason, Catch::Contains("no positive time"));
  }
}

TEST_CASE("a share of a ceiling measured in the same run", "[scoring]") {
  PerformanceCheck check;
  check.version = "v3";
  check.ceiling = "read";
  check.full_at = 0.5;
  DriverRun run;
  run.ceilings_gbps = {{"read", 4000.0}, {"copy", 3000.0}};
  run.rows = {row("a", "v3", 1.0, true, 1000.0), row("b", "v3", 1.0, true, 2000.0), row("c", "v3", 1.0, true, 1200.0)};
  CHECK(score_performance(check, {}, run, nullptr).fraction == Approx(0.6));  // 1200 / 4000 = 0.3 of 0.5
  run.rows[2].gbps = 2400.0;
  CHECK(score_performance(check, {}, run, nullptr).fraction == 1.0);  // 2000 / 4000: exactly full_at
  run.rows[1].gbps = std::nullopt;
  CHECK_THAT(score_performance(check, {}, run, nullptr).reason, Catch::Contains("no bandwidth on b"));
  check.ceiling = "theoretical";
  CHECK_THAT(score_performance(check, {}, run, nullptr).reason, Catch::Contains("no \"theoretical\" ceiling"));
}

TEST_CASE("against the reference build: T against T_ref per case, the median of the fractions", "[scoring]") {
  const PerformanceCheck check = speedup(4.0);
  DriverRun reference;
  reference.rows = {row("a", "v3", 1.0), row("b", "v3", 1.0), row("c", "v3", 1.0)};
  const auto student_at = [](double a, double b, double c) {
    DriverRun run;
    run.rows = {row("a", "v0", 100.0), row("a", "v3", a),     row("b", "v0", 100.0),
                row("b", "v3", b),     row("c", "v0", 100.0), row("c", "v3", c)};
    return run;
  };
  CHECK(score_performance(check, {}, student_at(1.2, 1.2, 1.2), &reference).fraction == 1.0);  // T = 1.2 T_ref
  CHECK(score_performance(check, {}, student_at(0.5, 2.4, 2.4), &reference).fraction == Approx(0.5));
  CHECK(score_performance(check, {}, student_at(10.0, 10.0, 10.0), &reference).fraction ==
        Approx(0.12));                                                                           // T = 10 T_ref
  CHECK(score_performance(check, {}, student_at(11.0, 20.0, 1.0), &reference).fraction == 0.0);  // beyond 10 T_ref
  const auto score = score_performance(check, {}, student_at(1.0, 1.0, 1.0), &reference);
  CHECK_THAT(score.reason, Catch::Contains("reference"));

  SECTION("T = 0 scores nothing") {
    CHECK(score_performance(check, {}, student_at(0.0, 1.0, 1.0), &reference).fraction == 0.0);
  }
  SECTION("a case missing in the reference run: the rubric's own formula, said in the reason") {
    reference.rows.pop_back();
    const auto fallback = score_performance(check, {}, student_at(1.0, 1.0, 1.0), &reference);
    CHECK(fallback.fraction == 1.0);  // 100x v0
    CHECK_THAT(fallback.reason,
               Catch::Contains("the reference run has no v3 row for c") && Catch::Contains("by the rubric's formula"));
  }
  SECTION("a wrong result scores nothing, however fast") {
    DriverRun run = student_at(1.0, 1.0, 1.0);
    run.rows[1].valid = false;
    CHECK(score_performance(check, {}, run, &reference).fraction == 0.0);
  }
}

TEST_CASE("a tests item: points x passed / listed, the cases not run leave the maximum", "[scoring]") {
  const TestsScore all = score_tests(10, 4, 4, 0);
  CHECK(all.score == 10.0);
  CHECK(all.max_score == 10.0);
  const TestsScore some = score_tests(10, 4, 3, 0);
  CHECK(some.score == Approx(7.5));
  CHECK(some.max_score == 10.0);
  const TestsScore half_run = score_tests(10, 4, 2, 2);
  CHECK(half_run.score == Approx(5.0));
  CHECK(half_run.max_score == Approx(5.0));
  CHECK(score_tests(10, 0, 0, 0).max_score == 0.0);
}

TEST_CASE("totals: items not run count for nothing, and nothing run is 0 of 0", "[scoring]") {
  LessonResult lesson;
  lesson.items = {scored_item(item_of(10), 0.5, "half"), not_run_item(item_of(20), "no CUDA device"),
                  scored_item(item_of(5), 1.0, "all"), failed_item(item_of(5), "exit 1")};
  const Totals totals = totals_of(lesson);
  CHECK(totals.score == 10.0);
  CHECK(totals.max_score == 20.0);
  CHECK(totals.passed == 1);
  CHECK(totals.failed == 2);
  CHECK(totals.not_run == 1);
  CHECK(lesson.items[1].score == 0.0);
  CHECK(lesson.items[1].max_score == 0.0);
  CHECK(lesson.items[1].points == 20.0);

  LessonResult nothing_ran;
  nothing_ran.items = {not_run_item(item_of(10), "no CUDA device"), not_run_item(item_of(5), "needs --ncu")};
  const Totals none = totals_of(std::vector<LessonResult>{nothing_ran});
  CHECK(none.score == 0.0);
  CHECK(none.max_score == 0.0);
  CHECK(none.not_run == 2);
  CHECK(totals_of(std::vector<LessonResult>{}).max_score == 0.0);
}

TEST_CASE("a fraction above 1 or below 0 is clamped, and passed means full points", "[scoring]") {
  CHECK(scored_item(item_of(4), 1.5, "").score == 4.0);
  CHECK(scored_item(item_of(4), -1.0, "").score == 0.0);
  CHECK(scored_item(item_of(4), 0.99, "").status == ItemStatus::failed);
  CHECK(scored_item(item_of(4), 1.0, "").status == ItemStatus::passed);
}

TEST_CASE("a figure beyond the hardware scores 0 with the reason: results replayed?", "[scoring][plausibility]") {
  PerformanceCheck share;
  share.version = "v3";
  share.ceiling = "read";
  share.full_at = 0.38;
  const std::vector<Bound> reads_every_byte{Bound{"read", "1", ""}};
  DriverRun run;
  run.ceilings_gbps = {{"read", 3000.0}};
  run.launch_floor_ms = 0.002;
  // The replay of issue 17: 5.67x the read bandwidth.
  run.rows = {matcher_row("e-coli", "E.coli", 16, "v0", 10.0, 300.0),
              matcher_row("e-coli", "E.coli", 16, "v3", 0.05, 17010.0)};
  for (const PerformanceCheck& check : {share, speedup(5.5)}) {
    const PerformanceScore score = score_performance(check, reads_every_byte, run, nullptr);
    CHECK(score.fraction == 0.0);
    CHECK_THAT(score.reason, Catch::Contains("implausible: v3 on E.coli m=16 runs at 5.67x the read bandwidth"));
    CHECK_THAT(score.reason, Catch::Contains("replayed"));
  }
  SECTION("within the noise of the ceiling it is a measurement") {
    run.rows[1].gbps = 3000.0 * kNoise * 0.999;
    CHECK(score_performance(share, reads_every_byte, run, nullptr).fraction == 1.0);
    run.rows[1].gbps = 3000.0 * kNoise * 1.001;
    CHECK(score_performance(share, reads_every_byte, run, nullptr).fraction == 0.0);
  }
  SECTION("a skipping algorithm may read one 32-byte sector per m + 1 bytes") {
    const std::vector<Bound> skips{Bound{"read", "m+1", ""}};
    run.rows = {matcher_row("e-coli", "E.coli", 255, "v0", 10.0, 300.0),
                matcher_row("e-coli", "E.coli", 255, "v3", 1.0, 3000.0 * 8 * 1.09)};
    CHECK(implausibility(run.rows[1], run, skips).empty());  // (255 + 1) / 32 = 8x the read bandwidth
    run.rows[1].gbps = 3000.0 * 8 * 1.11;
    CHECK_THAT(implausibility(run.rows[1], run, skips), Catch::Contains("one 32-byte sector per m+1 bytes"));
    CHECK(!implausibility(run.rows[1], run, {Bound{"read", "m", ""}}).empty());  // 255 / 32 < 8
    run.rows[1].case_id = "e-coli";  // the length is read from the id, never from the label
    CHECK_THAT(implausibility(run.rows[1], run, skips), Catch::Contains("needs a case id ending in -m<length>"));
  }
  SECTION("a time below one empty kernel launch, whatever the bounds") {
    run.rows = {matcher_row("e-coli", "E.coli", 16, "v0", 10.0, 300.0),
                matcher_row("e-coli", "E.coli", 16, "v3", 0.0015)};
    CHECK_THAT(score_performance(speedup(5.5), {}, run, nullptr).reason,
               Catch::Contains("less than one empty kernel launch"));
    run.rows[1].median_ms = 0.0019;  // within the noise of the floor
    CHECK(implausibility(run.rows[1], run, {}).empty());
  }
  SECTION("the baseline's row is bounded too") {
    run.rows = {matcher_row("e-coli", "E.coli", 16, "v0", 0.001, 1e6),
                matcher_row("e-coli", "E.coli", 16, "v3", 1.0, 1000.0)};
    CHECK_THAT(score_performance(speedup(5.5), reads_every_byte, run, nullptr).reason,
               Catch::Contains("implausible: v0"));
  }
  SECTION("a time bound against another row of the same case") {
    const std::vector<Bound> library{Bound{"", "1", "cublas"}};
    run.rows = {row("4096", "cublas", 2.0), row("4096", "tiled", 1.5)};
    run.rows[0].label = "cuBLAS SGEMM";  // rows are found by id whatever their label
    CHECK_THAT(implausibility(run.rows[1], run, library), Catch::Contains("1.33x as fast as cublas"));
    run.rows[1].median_ms = 1.9;
    CHECK(implausibility(run.rows[1], run, library).empty());
  }
}

TEST_CASE("the measured ratio goes with the score (the leaderboard's value)", "[scoring]") {
  DriverRun run;
  run.rows = {row("a", "v0", 3.0), row("a", "v3", 1.0)};
  const PerformanceScore score = score_performance(speedup(4.0), {}, run, nullptr);
  REQUIRE(score.ratio);
  CHECK(*score.ratio == Approx(3.0));
  run.rows[1].valid = false;
  CHECK_FALSE(score_performance(speedup(4.0), {}, run, nullptr).ratio);
}

TEST_CASE("a share of a ceiling above the floor version's share: the baseline's speed earns nothing", "[scoring]") {
  PerformanceCheck check;
  check.version = "v3";
  check.ceiling = "read";
  check.full_at = 0.4;
  check.floor_version = "v0";
  DriverRun run;
  run.ceilings_gbps = {{"read", 1000.0}};
  run.rows = {row("a", "v0", 1.0, true, 100.0), row("a", "v3", 1.0, true, 100.0)};
  CHECK(score_performance(check, {}, run, nullptr).fraction == 0.0);  // v3 = v0: 0.1 of read
  CHECK_THAT(score_performance(check, {}, run, nullptr).reason, Catch::Contains("none at <= 0.11 (1.1x v0's share)"));
  run.rows[1].gbps = 108.0;  // noise above v0 (8%), as the H100 measured a v3 that is v0: still nothing
  CHECK(score_performance(check, {}, run, nullptr).fraction == 0.0);
  run.rows[1].gbps = 255.0;
  CHECK(score_performance(check, {}, run, nullptr).fraction == Approx(0.5));  // halfway from 0.11 to 0.4
  run.rows[0].valid = false;
  CHECK_THAT(score_performance(check, {}, run, nullptr).reason, Catch::Contains("v0 gave no valid bandwidth"));
}

TEST_CASE("a bound that cannot be checked scores 0, never passes by default", "[scoring][plausibility]") {
  DriverRun run;
  run.rows = {row("a", "v0", 2.0, true, 100.0), row("a", "v3", 1.0, true, 200.0)};
  CHECK_THAT(implausibility(run.rows[1], run, {Bound{"read", "1", ""}}), Catch::Contains("no \"read\" ceiling"));
  CHECK_THAT(implausibility(run.rows[1], run, {Bound{"", "1", "cublas"}}), Catch::Contains("no timed \"cublas\" row"));
  CHECK(score_performance(speedup(1.5), {Bound{"read", "1", ""}}, run, nullptr).fraction == 0.0);
  run.ceilings_gbps = {{"read", 1000.0}};
  CHECK(score_performance(speedup(1.5), {Bound{"read", "1", ""}}, run, nullptr).fraction == 1.0);
}
