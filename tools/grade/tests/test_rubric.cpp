// Rubric parsing: every kind, and every mistake is an error naming the file and the item; a lesson's
// rubric read with its manifest.
#include <catch2/catch.hpp>

#include "rubric.hpp"
#include "temp_dir.hpp"

using namespace cudamatch::grade;

namespace {

const char* const kEveryKind = R"({
  "lesson": "11-brute-force",
  "driver_args": ["--mib", "256"],
  "bounds": [{"ceiling": "read", "stride": "m+1", "note": "why"}, {"row": "cublas"}],
  "note": "for people",
  "items": [
    {"id": "v1-tests", "name": "v1 tests", "kind": "tests", "points": 10, "tests": "v1*"},
    {"id": "v3-speedup", "name": "v3 4x v0", "kind": "performance", "points": 5, "version": "v3", "baseline": "v0",
     "full_at": 4.0, "note": "why 4"},
    {"id": "v3-bandwidth", "name": "v3 half the read bandwidth", "kind": "performance", "points": 2.5, "version": "v3",
     "ceiling": "read", "full_at": 0.5, "driver_args": ["--mib", "64"]},
    {"id": "conflicts", "name": "no conflicts", "kind": "ncu", "points": 3, "kernel": "transpose_padded",
     "metric": "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "relative_to_kernel": "transpose_tiled",
     "at_most": 0.01},
    {"id": "wide", "name": "16-byte loads", "kind": "sass", "points": 2, "binary": "test", "function": "copy_int4",
     "contains": ["LDG.E.128"], "absent": ["LDG.E.32"]},
    {"id": "sanitizers", "name": "clean", "kind": "sanitizer", "points": 0, "tests": "[gpu]~[oom]"}
  ]
})";

// A rubric of lesson 00 whose items are `item` (one or more, comma-separated).
std::string with_item(const std::string& item) { return R"({"lesson": "00-measuring", "items": [)" + item + "]}"; }

std::string error_of(const std::string& text) {
  try {
    parse_rubric(text, "lessons/x/rubric.json");
  } catch (const RubricError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a rubric with every kind of item parses into its checks", "[rubric]") {
  const Rubric rubric = parse_rubric(kEveryKind, "rubric.json");
  CHECK(rubric.lesson == "11-brute-force");
  CHECK(rubric.editable.empty());  // lesson.json's (load_rubric)
  REQUIRE(rubric.items.size() == 6);

  CHECK(std::get<TestsCheck>(rubric.items[0].check).spec == "v1*");
  CHECK(kind_name(rubric.items[0].check) == std::string("tests"));

  REQUIRE(rubric.bounds.size() == 2);
  CHECK(rubric.bounds[0].ceiling == "read");
  CHECK(rubric.bounds[0].stride == "m+1");
  CHECK(rubric.bounds[1].row == "cublas");
  CHECK(rubric.bounds[1].stride == "1");

  const auto& speedup = std::get<PerformanceCheck>(rubric.items[1].check);
  CHECK(speedup.baseline == "v0");
  CHECK(speedup.ceiling.empty());
  CHECK(speedup.floor == 1.0);  // the default with a baseline
  CHECK(speedup.full_at == 4.0);
  CHECK(rubric.driver_args_for(rubric.items[1]) == std::vector<std::string>{"--mib", "256"});

  const auto& bandwidth = std::get<PerformanceCheck>(rubric.items[2].check);
  CHECK(bandwidth.ceiling == "read");
  CHECK(bandwidth.floor == 0.0);  // the default with a ceiling
  CHECK(rubric.items[2].points == 2.5);
  CHECK(rubric.driver_args_for(rubric.items[2]) == std::vector<std::string>{"--mib", "64"});

  const auto& ncu = std::get<NcuCheck>(rubric.items[3].check);
  CHECK(ncu.relative_to_kernel == "transpose_tiled");
  CHECK(ncu.at_most == Approx(0.01));
  CHECK_FALSE(ncu.at_least);

  const auto& sass = std::get<SassCheck>(rubric.items[4].check);
  CHECK(sass.binary == "test");
  CHECK(sass.contains == std::vector<std::string>{"LDG.E.128"});
  CHECK(sass.absent == std::vector<std::string>{"LDG.E.32"});

  CHECK(std::get<SanitizerCheck>(rubric.items[5].check).spec == "[gpu]~[oom]");
  CHECK(rubric.items[5].points == 0);
}

TEST_CASE("rubric errors name the file and the item", "[rubric]") {
  const std::string tests = R"({"id": "t", "name": "n", "kind": "tests", "points": 1, "tests": "*"})";
  REQUIRE(error_of(with_item(tests)).empty());

  SECTION("an unknown kind") {
    const auto error = error_of(with_item(R"({"id": "t", "name": "n", "kind": "speed", "points": 1})"));
    CHECK_THAT(error, Catch::Contains("lessons/x/rubric.json") && Catch::Contains("item \"t\"") &&
                          Catch::Contains("unknown kind \"speed\""));
  }
  SECTION("missing fields") {
    CHECK_THAT(error_of(with_item(R"({"name": "n", "kind": "tests", "points": 1, "tests": "*"})")),
               Catch::Contains("item 1") && Catch::Contains("needs \"id\""));
    CHECK_THAT(error_of(with_item(R"({"id": "t", "kind": "tests", "points": 1, "tests": "*"})")),
               Catch::Contains("item \"t\"") && Catch::Contains("needs \"name\""));
    CHECK_THAT(error_of(with_item(R"({"id": "t", "name": "n", "kind": "tests", "tests": "*"})")),
               Catch::Contains("needs \"points\""));
    CHECK_THAT(error_of(with_item(R"({"id": "t", "name": "n", "kind": "tests", "points": 1})")),
               Catch::Contains("needs \"tests\""));
    CHECK_THAT(error_of(with_item(
                   R"({"id": "p", "name": "n", "kind": "performance", "points": 1, "baseline": "v0", "full_at": 2})")),
               Catch::Contains("item \"p\"") && Catch::Contains("needs \"version\""));
    CHECK_THAT(
        error_of(with_item(
            R"({"id": "p", "name": "n", "kind": "performance", "points": 1, "version": "v1", "baseline": "v0"})")),
        Catch::Contains("needs \"full_at\""));
    CHECK_THAT(
        error_of(with_item(R"({"id": "k", "name": "n", "kind": "ncu", "points": 1, "metric": "m", "at_most": 1})")),
        Catch::Contains("needs \"kernel\""));
    CHECK_THAT(
        error_of(with_item(R"({"id": "k", "name": "n", "kind": "ncu", "points": 1, "kernel": "k", "metric": "m"})")),
        Catch::Contains("\"at_most\" or \"at_least\""));
    CHECK_THAT(error_of(with_item(
                   R"({"id": "s", "name": "n", "kind": "sass", "points": 1, "function": "f", "contains": ["X"]})")),
               Catch::Contains("needs \"binary\""));
    CHECK_THAT(error_of(R"({"lesson": "00-measuring", "items": []})"),
               Catch::Contains("\"items\" must be a non-empty array"));
  }
  SECTION("negative points") {
    CHECK_THAT(error_of(with_item(R"({"id": "t", "name": "n", "kind": "tests", "points": -1, "tests": "*"})")),
               Catch::Contains("item \"t\"") && Catch::Contains("must not be negative"));
  }
  SECTION("wrong types") {
    CHECK_THAT(error_of(with_item(R"({"id": "t", "name": "n", "kind": "tests", "points": "5", "tests": "*"})")),
               Catch::Contains("\"points\" must be a number"));
    CHECK_THAT(
        error_of(with_item(
            R"({"id": "s", "name": "n", "kind": "sass", "points": 1, "binary": "elf", "function": "f", "contains": ["X"]})")),
        Catch::Contains("\"binary\" must be \"test\" or \"driver\""));
  }
  SECTION("a performance item needs exactly one of baseline and ceiling, and full_at above floor") {
    CHECK_THAT(error_of(with_item(
                   R"({"id": "p", "name": "n", "kind": "performance", "points": 1, "version": "v1", "full_at": 2})")),
               Catch::Contains("exactly one of"));
    CHECK_THAT(error_of(with_item(
                   R"({"id": "p", "name": "n", "kind": "performance", "points": 1, "version": "v1", "baseline": "v0",
                                     "ceiling": "read", "full_at": 2})")),
               Catch::Contains("exactly one of"));
    CHECK_THAT(error_of(with_item(
                   R"({"id": "p", "name": "n", "kind": "performance", "points": 1, "version": "v1", "baseline": "v0",
                                     "full_at": 0.9})")),
               Catch::Contains("\"full_at\" must be larger than \"floor\""));
  }
  SECTION("rows are named by their ids, never by the labels the driver prints") {
    CHECK_THAT(error_of(with_item(R"({"id": "p", "name": "n", "kind": "performance", "points": 1,
                                      "version": "padded 32x33", "baseline": "v0", "full_at": 2})")),
               Catch::Contains("item \"p\"") && Catch::Contains("\"version\" must be a row id") &&
                   Catch::Contains("not \"padded 32x33\""));
    CHECK_THAT(error_of(with_item(R"({"id": "p", "name": "n", "kind": "performance", "points": 1,
                                      "version": "v1", "baseline": "V0", "full_at": 2})")),
               Catch::Contains("\"baseline\" must be a row id"));
  }
  SECTION("a misspelt key is an error, a note is not") {
    CHECK_THAT(
        error_of(with_item(R"({"id": "t", "name": "n", "kind": "tests", "points": 1, "tests": "*", "at-most": 1})")),
        Catch::Contains("unknown key \"at-most\""));
    CHECK(error_of(with_item(R"({"id": "t", "name": "n", "kind": "tests", "points": 1, "tests": "*", "note": "why"})"))
              .empty());
    CHECK_THAT(error_of(with_item(
                   R"({"id": "t", "name": "n", "kind": "tests", "points": 1, "tests": "*", "driver_args": []})")),
               Catch::Contains("unknown key \"driver_args\""));
  }
  SECTION("the editable files are the manifest's alone") {
    CHECK_THAT(error_of(R"({"lesson": "00-measuring", "editable": ["saxpy.cu"], "items": [)" + tests + "]}"),
               Catch::Contains("lessons/x/rubric.json") && Catch::Contains("\"editable\" goes in lesson.json"));
  }
  SECTION("duplicate ids") {
    CHECK_THAT(error_of(with_item(tests + "," + tests)), Catch::Contains("item id \"t\" is used twice"));
  }
  SECTION("not JSON") {
    CHECK_THAT(error_of("{\"lesson\": "), Catch::Contains("lessons/x/rubric.json: not valid JSON"));
  }
}

TEST_CASE("a lesson's rubric is the one its manifest names, with the manifest's editable files", "[rubric]") {
  TempDir dir;
  const auto lesson = dir.path() / "00-measuring";
  write_file(lesson / "saxpy.cu", "");
  write_file(lesson / "lesson.json", R"({"editable": ["saxpy.cu"], "rubric": "grading.json", "driver": "driver.cu"})");
  const std::string items = R"("items": [{"id": "t", "name": "n", "kind": "tests", "points": 1, "tests": "*"}])";

  write_file(lesson / "grading.json", R"({"lesson": "00-measuring", )" + items + "}");
  const Rubric rubric = load_rubric(lesson);
  CHECK(rubric.lesson == "00-measuring");
  CHECK(rubric.file == lesson / "grading.json");
  CHECK(rubric.editable == std::vector<std::string>{"saxpy.cu"});

  write_file(lesson / "grading.json", R"({"lesson": "01-coalescing", )" + items + "}");
  CHECK_THROWS_WITH(load_rubric(lesson), Catch::Contains("but the folder is 00-measuring"));

  write_file(lesson / "lesson.json", R"({"editable": ["saxpy.cu"], "rubric": "missing.json"})");
  CHECK_THROWS_WITH(load_rubric(lesson), Catch::Contains("missing.json: cannot be read"));

  write_file(lesson / "lesson.json", R"({"editable": ["saxpy.cu"]})");
  CHECK_THROWS_WITH(load_rubric(lesson), Catch::Contains("lesson.json: names no \"rubric\""));

  CHECK_THROWS_WITH(load_rubric(dir.path() / "missing"), Catch::Contains("lesson.json: cannot be read"));
}

TEST_CASE("performance items need bounds, and a bound is a ceiling or a row", "[rubric]") {
  const std::string item =
      R"({"id": "p", "name": "n", "kind": "performance", "points": 1, "version": "v1", "ceiling": "read", "full_at": 0.5})";
  const auto with_bounds = [&](const std::string& bounds) {
    return R"({"lesson": "00-measuring", "bounds": )" + bounds + R"(, "items": [)" + item + "]}";
  };
  CHECK_THAT(error_of(with_item(item)), Catch::Contains("performance items need \"bounds\""));
  CHECK(error_of(with_bounds(R"([{"ceiling": "read"}])")).empty());
  CHECK_THAT(error_of(with_bounds(R"([])")), Catch::Contains("\"bounds\" must be a non-empty array"));
  CHECK_THAT(error_of(with_bounds(R"([{"ceiling": "read", "row": "x"}])")),
             Catch::Contains("bound 1: a bound needs exactly one"));
  CHECK_THAT(error_of(with_bounds(R"([{"note": "x"}])")), Catch::Contains("exactly one of \"ceiling\" and \"row\""));
  CHECK_THAT(error_of(with_bounds(R"([{"ceiling": "read", "stride": "2m"}])")), Catch::Contains("\"stride\" must be"));
  CHECK_THAT(error_of(with_bounds(R"([{"row": "x", "stride": "m"}])")),
             Catch::Contains("\"stride\" goes with \"ceiling\""));
  CHECK_THAT(error_of(with_bounds(R"([{"ceiling": "read", "strides": "m"}])")),
             Catch::Contains("unknown key \"strides\""));
  CHECK_THAT(error_of(with_bounds(R"([{"row": "cuBLAS SGEMM"}])")),
             Catch::Contains("bound 1") && Catch::Contains("\"row\" must be a row id"));
  CHECK_THAT(error_of(with_item(R"({"id": "p", "name": "n", "kind": "performance", "points": 1, "version": "v1",
                                  "baseline": "v0", "floor_version": "v0", "full_at": 2})")),
             Catch::Contains("\"floor_version\" goes with \"ceiling\""));
}
