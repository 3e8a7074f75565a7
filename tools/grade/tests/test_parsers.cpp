// What the grader reads from other programs and from its command line: --lessons, Catch2 test
// names, the drivers' --json files, ncu's CSV, cuobjdump's SASS, Ninja's build log; and its text helpers.
#include <catch2/catch.hpp>

#include "catch_tests.hpp"
#include "common/catch_test_spec.hpp"
#include "driver_results.hpp"
#include "lessons.hpp"
#include "ncu_report.hpp"
#include "rubric.hpp"
#include "sass_dump.hpp"
#include "temp_dir.hpp"
#include "text.hpp"
#include "track_build.hpp"

using namespace cudamatch::grade;

TEST_CASE("lesson numbers for --lessons: lists and ranges", "[parsers]") {
  CHECK(parse_lesson_numbers("00,03,07-12") == std::set<int>{0, 3, 7, 8, 9, 10, 11, 12});
  CHECK(parse_lesson_numbers("5") == std::set<int>{5});
  CHECK(parse_lesson_numbers("07-07,7") == std::set<int>{7});
  for (const char* bad : {"a", "07-", "-3", "12-7", "00,,03", "00,", "1.5", "07-brute-force"}) {
    INFO(bad);
    CHECK_THROWS_AS(parse_lesson_numbers(bad), LessonSelectionError);
  }
}

TEST_CASE("lessons are selected among those lessons/course.json lists", "[parsers]") {
  TempDir dir;
  const auto lessons_dir = dir.path() / "lessons";
  write_file(lessons_dir / "course.json", R"({"lessons": ["00-measuring", "03-bank-conflicts", "13-out-of-core"]})");
  write_file(lessons_dir / "00-measuring/lesson.json", R"({"editable": ["a.cu"], "rubric": "rubric.json"})");
  write_file(lessons_dir / "03-bank-conflicts/lesson.json", R"({"editable": ["a.cu"], "rubric": "rubric.json"})");
  write_file(lessons_dir / "13-out-of-core/lesson.json", R"({"editable": ["a.cu"]})");
  write_file(lessons_dir / "05-not-listed/lesson.json", R"({"editable": ["a.cu"], "rubric": "rubric.json"})");
  const auto lessons = course_lessons(dir.path());
  REQUIRE(lessons.size() == 3);
  CHECK(lessons[1].id == "03-bank-conflicts");
  CHECK(lessons[1].number == 3);
  CHECK(lessons[1].dir == lessons_dir / "03-bank-conflicts");

  const auto every = select_lessons(lessons, "");
  REQUIRE(every.size() == 2);  // only those whose manifest names a rubric
  CHECK(every[0].id == "00-measuring");
  CHECK(select_lessons(lessons, "3").at(0).id == "03-bank-conflicts");
  CHECK_THROWS_WITH(select_lessons(lessons, "00-05"), Catch::Contains("no lesson 1"));
  CHECK_THROWS_WITH(select_lessons(lessons, "13"), Catch::Contains("13-out-of-core names no rubric"));
}

TEST_CASE("a course.json that is not a list of lesson folders is an error naming it", "[parsers]") {
  TempDir dir;
  const auto course_file = dir.path() / "lessons/course.json";
  write_file(dir.path() / "lessons/00-measuring/lesson.json", R"({"editable": ["a.cu"]})");
  const auto error_of = [&](const std::string& text) {
    write_file(course_file, text);
    try {
      course_lessons(dir.path());
    } catch (const RubricError& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(error_of(R"({"lessons": ["00-measuring"]})").empty());
  CHECK_THAT(error_of(R"({"lessons": []})"), Catch::Contains("course.json") && Catch::Contains("needs \"lessons\""));
  CHECK_THAT(error_of(R"({"lessons": ["measuring"]})"), Catch::Contains("not a lesson folder's name"));
  CHECK_THAT(error_of(R"({"lessons": ["00-measuring", "00-other"]})"), Catch::Contains("have the same number"));
  CHECK_THAT(error_of(R"({"lessons": ["01-missing"]})"), Catch::Contains("01-missing/lesson.json: cannot be read"));
}

TEST_CASE("a test name becomes a Catch2 spec that selects exactly it", "[parsers]") {
  CHECK(cudamatch::exact_test_spec("plain name") == "plain name");
  CHECK(cudamatch::exact_test_spec("a, b [c] *d~ \"e\" \\f") == "a\\, b \\[c\\] \\*d\\~ \\\"e\\\" \\\\f");
  CHECK(parse_test_names("first test\nsecond, with a comma\r\n\n\"#3 starts with a hash\"\n") ==
        std::vector<std::string>{"first test", "second, with a comma", "#3 starts with a hash"});
}

TEST_CASE("a driver's --json file: rows found by their ids, and the best of three runs", "[parsers]") {
  const DriverRun run = parse_driver_results(R"json({
    "lesson": "03-bank-conflicts", "device": {"name": "NVIDIA H200", "compute_capability": "9.0"},
    "ceilings_gbps": {"read": 4481.2, "copy": 4229.9, "theoretical": 4814.0}, "launch_floor_ms": 0.0021,
    "rows": [
      {"case": "4096x4096", "case_label": "4096 x 4096", "id": "padded", "label": "padded 32x33",
       "median_ms": 0.1234, "gbps": 3456.7, "valid": true},
      {"case": "4096x4096", "case_label": "4096 x 4096", "id": "copy", "label": "copy (ceiling)",
       "median_ms": null, "gbps": 4000.0, "valid": true},
      {"case": "4096x4096", "id": "naive", "median_ms": 0.5}
    ]})json");
  CHECK(run.lesson == "03-bank-conflicts");
  CHECK(run.ceilings_gbps.at("copy") == Approx(4229.9));
  CHECK(run.launch_floor_ms == Approx(0.0021));
  REQUIRE(run.rows.size() == 3);
  const DriverRow* padded = run.find("4096x4096", "padded");
  REQUIRE(padded != nullptr);
  CHECK(padded->median_ms == Approx(0.1234));
  CHECK(padded->label == "padded 32x33");
  CHECK(padded->case_label == "4096 x 4096");
  CHECK(run.find("4096 x 4096", "padded 32x33") == nullptr);  // labels are for people, never matched
  CHECK_FALSE(run.find("4096x4096", "copy")->median_ms);
  CHECK_FALSE(run.find("4096x4096", "naive")->valid);       // a row that does not say it is valid is not
  CHECK(run.find("4096x4096", "naive")->label == "naive");  // no label: the id
  CHECK(run.find("4096x4096", "tiled") == nullptr);
  CHECK(run.ids() == std::vector<std::string>{"padded", "copy", "naive"});

  CHECK_THROWS_WITH(parse_driver_results("{\"rows\": 3}"), Catch::Contains("no \"rows\" array"));
  CHECK_THROWS_WITH(parse_driver_results("{\"rows\": [{\"id\": \"v0\"}]}"), Catch::Contains("row 1 has no \"case\""));
  CHECK_THROWS_WITH(parse_driver_results(R"({"rows": [{"case": "a", "version": "v0"}]})"),
                    Catch::Contains("row 1 has no \"id\""));
  CHECK_THROWS_WITH(parse_driver_results(R"({"rows": [{"case": "a", "id": "v0", "median_ms": "fast"}]})"),
                    Catch::Contains("\"median_ms\" is not a number"));
  CHECK_THROWS_WITH(parse_driver_results("not json"), Catch::Contains("not valid JSON"));

  const auto one_run = [](double ms, double gbps, bool valid, double read) {
    DriverRun r;
    r.ceilings_gbps = {{"read", read}};
    r.rows = {DriverRow{"a", "a", "v1", "v1", ms, gbps, valid}};
    return r;
  };
  const DriverRun best =
      best_of({one_run(2.0, 100.0, true, 900.0), one_run(1.0, 80.0, true, 1000.0), one_run(3.0, 120.0, true, 950.0)});
  CHECK(*best.rows.at(0).median_ms == 1.0);
  CHECK(*best.rows.at(0).gbps == 120.0);
  CHECK(best.rows.at(0).valid);
  CHECK(best.ceilings_gbps.at("read") == 1000.0);
  CHECK_FALSE(best_of({one_run(2.0, 100.0, true, 1.0), one_run(1.0, 80.0, false, 1.0)}).rows.at(0).valid);
}

TEST_CASE("ncu's CSV report: the metric of the first launch", "[parsers]") {
  const std::string csv =
      "==PROF== Connected to process 1234 (/build/bin/03-bank-conflicts)\n"
      "\"ID\",\"Process ID\",\"Process Name\",\"Host Name\",\"Kernel Name\",\"Context\",\"Stream\",\"Section Name\","
      "\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
      "\"0\",\"1234\",\"03-bank-conflicts\",\"127.0.0.1\",\"void transpose_tiled_kernel<33>(float *, const float *, "
      "int, "
      "int)\",\"1\",\"7\",\"Command line profiler "
      "metrics\",\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\","
      "\"\",\"13,183\"\n"
      "\"1\",\"1234\",\"03-bank-conflicts\",\"127.0.0.1\",\"void transpose_tiled_kernel<33>(float *, const float *, "
      "int, "
      "int)\",\"1\",\"7\",\"Command line profiler "
      "metrics\",\"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum\","
      "\"\",\"99\"\n";
  const NcuValue value = read_ncu_csv(csv, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum");
  REQUIRE(value.found);
  CHECK(value.value == 13183.0);
  CHECK_THAT(value.kernel, Catch::StartsWith("void transpose_tiled_kernel<33>"));

  CHECK_THAT(read_ncu_csv(csv, "dram__bytes_read.sum").error, Catch::Contains("no value of dram__bytes_read.sum"));
  CHECK_THAT(read_ncu_csv("==WARNING== No kernels were profiled.\n", "m").error, Catch::Contains("profiled no kernel"));
  const std::string na =
      "\"ID\",\"Kernel Name\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n\"0\",\"k\",\"m\",\"\",\"n/a\"\n";
  CHECK_THAT(read_ncu_csv(na, "m").error, Catch::Contains("reported \"n/a\""));

  CHECK_THAT(ncu_unusable_reason("==ERROR== ERR_NVGPUCTRPERM - The user does not have permission"),
             Catch::Contains("ERR_NVGPUCTRPERM"));
  CHECK(ncu_unusable_reason("==PROF== Disconnected").empty());
}

TEST_CASE("an ncu item passes within its limits, relative or absolute", "[parsers]") {
  NcuCheck check;
  check.kernel = "padded";
  check.metric = "conflicts";
  check.relative_to_kernel = "tiled";
  check.at_most = 0.01;
  CHECK(judge_ncu(check, 13183, 4108892.0).passed);
  CHECK(judge_ncu(check, 41088.92, 4108892.0).passed);  // exactly at the limit
  const NcuJudgement above = judge_ncu(check, 50000, 4108892.0);
  CHECK_FALSE(above.passed);
  CHECK_THAT(above.reason, Catch::Contains("above at most 0.01 x"));
  // A reference kernel that measured nothing (a stub: both 0) or nothing at all fails the item.
  const NcuJudgement stubs = judge_ncu(check, 0, 0.0);
  CHECK_FALSE(stubs.passed);
  CHECK_THAT(stubs.reason, Catch::Contains("no ratio to judge"));
  CHECK_FALSE(judge_ncu(check, 0, std::nullopt).passed);

  check.relative_to_kernel.clear();
  check.at_most = 100.0;
  check.at_least = 10.0;
  CHECK(judge_ncu(check, 50, std::nullopt).passed);
  CHECK_FALSE(judge_ncu(check, 5, std::nullopt).passed);
  CHECK_FALSE(judge_ncu(check, 500, std::nullopt).passed);
}

TEST_CASE("cuobjdump's SASS: functions per architecture, demangled, and the sass check", "[parsers]") {
  const std::string dump =
      "\nFatbin elf code:\n================\narch = sm_75\n\n\tcode for sm_75\n"
      "\t\tFunction : _Z18copy_vector_kernelI4int4EvPKT_PS1_m\n"
      "\t.headerflags\t@\"EF_CUDA_SM75\"\n"
      "        /*0080*/                   LDG.E.128.SYS R4, [R2] ;\n"
      "        /*0090*/                   STG.E.128.SYS [R6], R4 ;\n"
      "\t\tFunction : _Z18copy_vector_kernelIiEvPKT_PS0_m\n"
      "        /*0080*/                   LDG.E.SYS R4, [R2] ;\n"
      "\nFatbin elf code:\n================\narch = sm_90\n\n\tcode for sm_90\n"
      "\t\tFunction : _Z18copy_vector_kernelI4int4EvPKT_PS1_m\n"
      "        /*0080*/                   LDG.E.128 R4, desc[UR4][R2.64] ;\n"
      "        /*0090*/                   STG.E.128 desc[UR4][R6.64], R4 ;\n";
  const auto functions = parse_sass(dump);
  REQUIRE(functions.size() == 3);
  CHECK(functions[0].arch == "sm_75");
  CHECK(functions[0].name == "void copy_vector_kernel<int4>(int4 const*, int4*, unsigned long)");
  CHECK(functions[2].arch == "sm_90");
  CHECK(demangle("_Z3fooi") == "foo(int)");
  CHECK(demangle("extern_c_kernel") == "extern_c_kernel");

  SassCheck check;
  check.binary = "test";
  check.function = "copy_vector_kernel<int4>";
  check.contains = {"LDG.E.128", "STG.E.128"};
  const SassJudgement wide = judge_sass(check, functions);
  CHECK(wide.passed);
  CHECK_THAT(wide.reason, Catch::Contains("[sm_75]") && Catch::Contains("[sm_90]"));

  check.function = "copy_vector_kernel<int>";
  const SassJudgement narrow = judge_sass(check, functions);
  CHECK_FALSE(narrow.passed);
  CHECK_THAT(narrow.reason, Catch::Contains("has no LDG.E.128"));

  check.function = "copy_vector_kernel<int4>";
  check.contains.clear();
  check.absent = {"STG.E.128"};
  CHECK_FALSE(judge_sass(check, functions).passed);
  check.function = "missing_kernel";
  CHECK_THAT(judge_sass(check, functions).reason, Catch::Contains("no function named like \"missing_kernel\""));
}

TEST_CASE("the first errors of a failed build, without the noise", "[parsers]") {
  const std::string log =
      "[1/12] Building CXX object common/CMakeFiles/x.dir/a.cpp.o\n"
      "[2/12] Building CUDA object lessons/CMakeFiles/lesson.dir/saxpy.cu.o\n"
      "FAILED: lessons/CMakeFiles/lesson.dir/saxpy.cu.o \n"
      "/usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -O3 -c /tmp/copy/lessons/00-measuring/saxpy.cu -o "
      "x.o\n"
      "/tmp/copy/lessons/00-measuring/saxpy.cu(12): error: expected a \";\"\n"
      "    int i = blockIdx.x * blockDim.x + threadIdx.x\n"
      "\n"
      "1 error detected in the compilation of \"/tmp/copy/lessons/00-measuring/saxpy.cu\".\n"
      "ninja: build stopped: subcommand failed.\n";
  const std::string errors = first_error_lines(log, "/tmp/copy", 40, 4000);
  CHECK_THAT(errors, Catch::StartsWith("lessons/00-measuring/saxpy.cu(12): error: expected a \";\""));
  CHECK_THAT(errors, !Catch::Contains("nvcc") && !Catch::Contains("FAILED") && !Catch::Contains("[2/12]") &&
                         !Catch::Contains("ninja: build stopped"));
  CHECK(first_error_lines(log, "/tmp/copy", 1, 4000) == "lessons/00-measuring/saxpy.cu(12): error: expected a \";\"\n");
  CHECK(first_error_lines("ninja: error: unknown target 'x'\n", "", 40, 4000) == "ninja: error: unknown target 'x'\n");
}

TEST_CASE("text helpers", "[parsers]") {
  CHECK(last_lines("a\nb\nc\n", 2, 100) == "b\nc");
  CHECK(last_lines("a\nb\nc", 5, 100) == "a\nb\nc");
  CHECK(last_lines("a\nbbbb\ncc", 5, 6) == "cc");
  CHECK(last_lines("0123456789", 5, 4) == "6789");
  CHECK(last_lines("", 5, 100).empty());
  CHECK(valid_utf8("caf\xc3\xa9 \xff\xfe ok") == "caf\xc3\xa9 ?? ok");
  CHECK(valid_utf8("\xc0\xaf") == "??");  // an overlong '/'
  CHECK(valid_utf8("\xe2\x82") == "??");  // cut short
  CHECK(format_number(4.0) == "4");
  CHECK(format_number(0.5) == "0.5");
  CHECK(format_number(2.0 / 3.0) == "0.67");
  CHECK(format_number(-0.001) == "0");
  CHECK(join({"", "b"}, ", ") == ", b");
  CHECK(trim("  x y \n") == "x y");
}
