// The outputs: Gradescope's results.json against its field spec, JUnit XML parsed back, the table.
#include <catch2/catch.hpp>

#include <sstream>

#include <nlohmann/json.hpp>

#include "outputs.hpp"
#include "process.hpp"
#include "temp_dir.hpp"
#include "toolchain.hpp"

using namespace cudamatch::grade;

namespace {

const std::string kAwkwardName = "names with <&\"'> and a \x01 control byte and \xff invalid UTF-8";

RubricItem item_of(const std::string& id, const std::string& name, double points) {
  RubricItem item;
  item.id = id;
  item.name = name;
  item.points = points;
  item.check = TestsCheck{"*"};
  return item;
}

GradeReport sample_report() {
  GradeReport report;
  report.graded = "the student track of /course";
  report.gpu = "no CUDA device: nvidia-smi not found";
  report.notes = {"ignored: 1 file (only the lessons' editable files are taken), e.g. notes.txt"};
  report.seconds = 12.4;
  LessonResult lesson;
  lesson.lesson = "00-measuring";
  lesson.notes = {"the lesson does not compile: saxpy.cu(3): error: expected a \";\""};
  lesson.items = {scored_item(item_of("a", kAwkwardName, 10), 1.0, "1 of 1 test cases passed"),
                  failed_item(item_of("b", "fails", 5), "exit 1", "saxpy.cu(3): error: <&>\x1b[31m"),
                  not_run_item(item_of("c", "gpu", 20), "no CUDA device: nvidia-smi not found"),
                  scored_item(item_of("d", "half", 4), 0.5, "r = 2")};
  report.lessons = {lesson};
  return report;
}

}  // namespace

TEST_CASE("results.json has Gradescope's fields with their types", "[outputs]") {
  const std::string text = gradescope_results(sample_report()).dump(2);
  const nlohmann::json results = nlohmann::json::parse(text);  // what Gradescope reads: valid UTF-8 JSON
  REQUIRE(results.is_object());
  CHECK(results.at("score").is_number());
  CHECK(results.at("score").get<double>() == 12.0);      // 10 + 0 + 2
  CHECK(results.at("max_score").get<double>() == 19.0);  // 10 + 5 + 4, the item not run leaves it
  CHECK(results.at("execution_time").is_number_integer());
  CHECK(results.at("output").is_string());
  CHECK_THAT(results.at("output").get<std::string>(),
             Catch::Contains("score: 12 of 19") && Catch::Contains("ignored: 1 file"));
  const nlohmann::json& tests = results.at("tests");
  REQUIRE(tests.is_array());
  REQUIRE(tests.size() == 4);
  for (const auto& test : tests) {
    CHECK(test.at("name").is_string());
    CHECK(test.at("score").is_number());
    CHECK(test.at("max_score").is_number());
    CHECK((test.at("status") == "passed" || test.at("status") == "failed"));
    CHECK(test.at("output").is_string());
    CHECK(test.at("visibility") == "visible");
  }
  CHECK_THAT(tests[0].at("name").get<std::string>(), Catch::StartsWith("00-measuring names with <&\"'>"));
  CHECK(tests[0].at("status") == "passed");
  CHECK(tests[1].at("status") == "failed");
  CHECK_THAT(tests[1].at("output").get<std::string>(), Catch::StartsWith("failed: exit 1") && Catch::Contains("error"));
  CHECK(tests[2].at("score").get<double>() == 0.0);
  CHECK(tests[2].at("max_score").get<double>() == 0.0);
  CHECK_THAT(tests[2].at("output").get<std::string>(), Catch::StartsWith("not run: no CUDA device"));
  CHECK(tests[3].at("score").get<double>() == 2.0);
  CHECK(tests[3].at("status") == "failed");  // partial credit is not a pass
}

TEST_CASE("results.json when nothing ran: 0 of 0", "[outputs]") {
  GradeReport report;
  LessonResult lesson;
  lesson.lesson = "11-brute-force";
  lesson.items = {not_run_item(item_of("a", "gpu", 10), "no CUDA device")};
  report.lessons = {lesson};
  const nlohmann::json results = gradescope_results(report);
  CHECK(results.at("score").get<double>() == 0.0);
  CHECK(results.at("max_score").get<double>() == 0.0);
}

TEST_CASE("JUnit XML is escaped and parses back", "[outputs]") {
  const std::string xml = junit_xml(sample_report());
  CHECK_THAT(xml,
             Catch::Contains("name=\"names with &lt;&amp;&quot;&apos;&gt; and a ? control byte and ? invalid UTF-8\""));
  CHECK_THAT(xml, !Catch::Contains("\x1b") && !Catch::Contains("\x01"));

  const auto python = find_program("python3");
  REQUIRE(python);  // CI installs it: the parse back is the point of this test
  TempDir dir;
  write_file(dir.path() / "j.xml", xml);
  ProcessSpec spec;
  spec.argv = {
      python->string(), "-c",
      "import sys, json, xml.etree.ElementTree as E\n"
      "root = E.parse(sys.argv[1]).getroot()\n"
      "cases = root.findall('testsuite/testcase')\n"
      "print(json.dumps({'root': root.tag, 'suites': [s.get('name') for s in root.findall('testsuite')],\n"
      "  'names': [c.get('name') for c in cases], 'failures': len(root.findall('testsuite/testcase/failure')),\n"
      "  'skipped': len(root.findall('testsuite/testcase/skipped')), 'tests': root.get('tests'),\n"
      "  'failure': cases[1].find('failure').text}))\n",
      (dir.path() / "j.xml").string()};
  spec.timeout_s = 60;
  const ProcessResult parsed = run_process(spec);
  INFO(parsed.output);
  REQUIRE(parsed.exited_with(0));
  const nlohmann::json summary = nlohmann::json::parse(parsed.output);
  CHECK(summary.at("root") == "testsuites");
  CHECK(summary.at("suites") == nlohmann::json::array({"00-measuring"}));
  CHECK(summary.at("names")[0] == "names with <&\"'> and a ? control byte and ? invalid UTF-8");
  CHECK(summary.at("failures") == 2);
  CHECK(summary.at("skipped") == 1);
  CHECK(summary.at("tests") == "4");
  CHECK_THAT(summary.at("failure").get<std::string>(), Catch::Contains("error: <&>?[31m"));
}

TEST_CASE("the terminal table has a row per item and the totals", "[outputs]") {
  std::ostringstream out;
  print_table(out, sample_report());
  const std::string table = out.str();
  CHECK_THAT(table, Catch::Contains("lesson") && Catch::Contains("points") && Catch::Contains("status"));
  CHECK_THAT(table, Catch::Contains("not run  no CUDA device: nvidia-smi not found"));
  CHECK_THAT(table, Catch::Contains("(lesson total)"));
  CHECK_THAT(table, Catch::Contains("not run: 1 of the items (they do not count)"));
  CHECK_THAT(table, Catch::Contains("the lesson does not compile"));
}

TEST_CASE("write_text_file creates the folder and says when it cannot write", "[outputs]") {
  TempDir dir;
  write_text_file(dir.path() / "a" / "b" / "r.json", "{}\n");
  CHECK(read_file(dir.path() / "a" / "b" / "r.json") == "{}\n");
  CHECK_THROWS_WITH(write_text_file(dir.path() / "a" / "b" / "r.json" / "x", "{}"), Catch::Contains("r.json"));
}

TEST_CASE("results.json: an incomplete grade says so first; the leaderboard on request", "[outputs]") {
  GradeReport report = sample_report();
  RubricItem speed = item_of("v3-speedup", "v3 5.5x v0", 10);
  speed.check = PerformanceCheck{"v3", "v0", "", 1.0, "", 5.5};
  ItemResult measured = scored_item(speed, 1.0, "v3 is 7.27x v0");
  measured.ratio = 7.2712345;
  report.lessons[0].items.push_back(measured);
  CHECK_FALSE(gradescope_results(report).contains("leaderboard"));
  const nlohmann::json board = gradescope_results(report, true).at("leaderboard");
  REQUIRE(board.size() == 1);
  CHECK(board[0].at("name") == "00-measuring v3-speedup");
  CHECK(board[0].at("value").get<double>() == Approx(7.2712));
  CHECK(board[0].at("order") == "desc");

  report.incomplete = "no CUDA device: nvidia-smi not found: the GPU items could not run";
  CHECK_THAT(gradescope_results(report).at("output").get<std::string>(),
             Catch::StartsWith("NOT A GRADE: no CUDA device: nvidia-smi not found"));
}
