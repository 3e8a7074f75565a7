// The drivers' results file (common/results_json.hpp), read back the way the autograder reads it.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/results_json.hpp"
#include "temp_files.hpp"

using namespace cudamatch;
using cudamatch::testing::make_temp_dir;
using nlohmann::json;

namespace {

DeviceInfo test_device() {
  DeviceInfo device;
  device.name = "NVIDIA H200";
  device.cc_major = 9;
  device.cc_minor = 0;
  return device;
}

Ceilings test_ceilings() {
  Ceilings ceilings;
  ceilings.theoretical_gbps = 4814.0;
  ceilings.device_copy_gbps = 4229.9;
  ceilings.device_read_gbps = 4481.2;
  ceilings.launch_floor_ms = 0.0042;
  return ceilings;
}

std::string json_text(const DriverResults& results) {
  std::ostringstream out;
  results.write(out);
  return out.str();
}

json parsed(const DriverResults& results) { return json::parse(json_text(results)); }

const ResultCase kSquare{"4096x4096", "4096 x 4096"};

}  // namespace

TEST_CASE("the results file holds the lesson, the device, the ceilings and every row in order", "[results]") {
  DriverResults results("03-bank-conflicts", test_device(), test_ceilings());
  results.add_ceiling("h2d_pinned", 55.3);
  results.add({kSquare, "tiled", "tiled 32x32", 0.3094, 1735.2, true});
  results.add(std::vector<ResultRow>{{kSquare, "padded", "padded 32x33", 0.1524, 3523.1, false},
                                     {{"e-coli-m8", "E.coli m=8"}, "v0", "v0", 0.25, 1000.5, true}});
  const json document = parsed(results);

  CHECK(document["lesson"] == "03-bank-conflicts");
  CHECK(document["device"] == json({{"name", "NVIDIA H200"}, {"compute_capability", "9.0"}}));
  CHECK(document["ceilings_gbps"] ==
        json({{"read", 4481.2}, {"copy", 4229.9}, {"theoretical", 4814.0}, {"h2d_pinned", 55.3}}));
  CHECK(document["launch_floor_ms"] == 0.0042);
  const json& rows = document["rows"];
  REQUIRE(rows.size() == 3);
  CHECK(rows[0] == json({{"case", "4096x4096"},
                         {"case_label", "4096 x 4096"},
                         {"id", "tiled"},
                         {"label", "tiled 32x32"},
                         {"median_ms", 0.3094},
                         {"gbps", 1735.2},
                         {"valid", true}}));
  CHECK(rows[1]["id"] == "padded");
  CHECK(rows[1]["label"] == "padded 32x33");
  CHECK(rows[1]["valid"] == false);
  CHECK(rows[2]["case"] == "e-coli-m8");
  CHECK(rows[2]["case_label"] == "E.coli m=8");
  CHECK(rows[2]["median_ms"].get<double>() == 0.25);  // numbers keep every digit
}

TEST_CASE("ids are short (a-z, 0-9, _ and -), one per row of a case, one label per case", "[results]") {
  CHECK(is_result_id("v0"));
  CHECK(is_result_id("grid-stride-8"));
  CHECK(is_result_id("copy_in"));
  for (const char* bad : {"", "V0", "padded 32x33", "e.coli", "a/b", "\xC3\xA9"}) {
    INFO(bad);
    CHECK_FALSE(is_result_id(bad));
  }
  CHECK_FALSE(is_result_id(std::string(65, 'a')));
  CHECK(result_id_of("E.coli") == "e-coli");
  CHECK(result_id_of("bible.txt") == "bible-txt");
  CHECK(result_id_of(" --World 192.TXT-- ") == "world-192-txt");

  DriverResults results("03-bank-conflicts", test_device(), test_ceilings());
  results.add({kSquare, "tiled", "tiled 32x32", 0.3, 1700.0, true});
  results.add({{"2048x2048", "2048 x 2048"}, "tiled", "tiled 32x32", 0.1, 1700.0, true});  // another case
  CHECK_THROWS_WITH(results.add({kSquare, "tiled", "tiled again", 0.3, 1700.0, true}),
                    Catch::Contains("row \"tiled\" twice in case \"4096x4096\""));
  CHECK_THROWS_WITH(results.add({{"4096x4096", "4096 by 4096"}, "padded", "padded 32x33", 0.2, 3500.0, true}),
                    Catch::Contains("two labels"));
  CHECK_THROWS_AS(results.add({kSquare, "padded 32x33", "padded 32x33", 0.2, 3500.0, true}), std::invalid_argument);
  CHECK_THROWS_AS(results.add({{"4096 x 4096", "4096 x 4096"}, "padded", "padded", 0.2, 3500.0, true}),
                  std::invalid_argument);
  CHECK(parsed(results)["rows"].size() == 2);
}

TEST_CASE("a results file without rows is still a complete document", "[results]") {
  const json document = parsed(DriverResults("00-measuring", test_device(), test_ceilings()));
  CHECK(document["rows"] == json::array());
  CHECK(document["ceilings_gbps"].size() == 3);
  CHECK(document["launch_floor_ms"] == 0.0042);
}

// The launch floor is a top-level number beside the ceilings (not one of them: it is a time), so a
// reader of "ceilings_gbps" sees the same three bandwidths as before; the other fields keep their
// names and their order.
TEST_CASE("the results file holds the launch floor as a top-level number of milliseconds", "[results]") {
  const json document = parsed(DriverResults("11-brute-force", test_device(), test_ceilings()));
  REQUIRE(document.contains("launch_floor_ms"));
  CHECK(document["launch_floor_ms"].is_number_float());
  CHECK(document["launch_floor_ms"].get<double>() == 0.0042);
  CHECK_FALSE(document["ceilings_gbps"].contains("launch_floor_ms"));
  const auto in_order =
      nlohmann::ordered_json::parse(json_text(DriverResults("11-brute-force", test_device(), test_ceilings())));
  std::vector<std::string> keys;
  for (const auto& item : in_order.items()) keys.push_back(item.key());
  CHECK(keys == std::vector<std::string>{"lesson", "device", "ceilings_gbps", "launch_floor_ms", "rows"});

  Ceilings unmeasured = test_ceilings();
  unmeasured.launch_floor_ms = std::numeric_limits<double>::quiet_NaN();
  CHECK(parsed(DriverResults("11-brute-force", test_device(), unmeasured))["launch_floor_ms"].is_null());
}

TEST_CASE("figures a row does not have, and figures that are not finite, are null", "[results]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  Ceilings ceilings = test_ceilings();
  ceilings.device_read_gbps = nan;
  DriverResults results("06-streams", test_device(), ceilings);
  const ResultCase input{"64mib", "64 MiB"};
  results.add({input, "kernel", "kernel alone (12 iterations)", 1.5, std::nullopt, std::nullopt});
  results.add({input, "naive", "naive", std::nullopt, std::nullopt, false});
  results.add({input, "broken", "broken timer", inf, nan, true});
  const json document = parsed(results);

  CHECK(document["ceilings_gbps"]["read"].is_null());
  CHECK(document["ceilings_gbps"]["copy"] == 4229.9);
  const json& rows = document["rows"];
  CHECK(rows[0]["median_ms"] == 1.5);
  CHECK(rows[0]["gbps"].is_null());
  CHECK(rows[0]["valid"].is_null());
  CHECK(rows[1]["median_ms"].is_null());
  CHECK(rows[1]["valid"] == false);
  CHECK(rows[2]["median_ms"].is_null());
  CHECK(rows[2]["gbps"].is_null());
}

TEST_CASE("labels are escaped: quotes, backslashes, control characters, bytes that are not UTF-8", "[results]") {
  const std::string awkward = "say \"hi\" \\ then\n\ttab \x01 \xC3\xA9";  // ends in a UTF-8 e-acute
  DriverResults results("11-brute-force", test_device(), test_ceilings());
  results.add({{"awkward", awkward}, "awkward", awkward, 1.0, 2.0, true});
  results.add({{"bad", "bad \xFF byte"}, "v1", "v1", 1.0, 2.0, true});
  std::ostringstream out;
  results.write(out);
  CHECK(out.str().find('\n') != std::string::npos);  // pretty-printed, one field per line
  CHECK(out.str().find('\x01') == std::string::npos);
  const json document = json::parse(out.str());
  CHECK(document["rows"][0]["case_label"] == awkward);
  CHECK(document["rows"][0]["label"] == awkward);
  CHECK(document["rows"][1]["case_label"] == "bad \xEF\xBF\xBD byte");  // U+FFFD for the stray byte
}

TEST_CASE("save writes the file, writes nothing without a path, and names a path it cannot write", "[results]") {
  DriverResults results("01-coalescing", test_device(), test_ceilings());
  const ResultCase input{"8192x8192", "8192 x 8192"};
  results.add({input, "coalesced", "2-D coalesced (x -> column)", 0.2294, 3511.1, true});
  const std::string dir = make_temp_dir();
  const std::string path = dir + "/results.json";

  results.save("");
  CHECK(::access(path.c_str(), F_OK) != 0);

  results.save(path);
  std::ifstream file(path);
  const json document = json::parse(file);
  CHECK(document == parsed(results));

  results.add({input, "strided", "2-D strided (x -> row)", 1.1598, 694.3, true});
  results.save(path);  // replaces the earlier file
  std::ifstream again(path);
  CHECK(json::parse(again)["rows"].size() == 2);

  CHECK_THROWS_WITH(results.save(dir + "/missing/results.json"), Catch::Contains(dir + "/missing/results.json"));
}
