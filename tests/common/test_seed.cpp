// The drivers' seed (common/seed.hpp): --seed N, --seed-stdin, and what standard input must hold.
#include <catch2/catch.hpp>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/seed.hpp"

using namespace cudamatch;

namespace {

// The options after parsing `args` (without the program name).
SeedOptions parsed(std::vector<std::string> args) {
  CLI::App app{"test"};
  SeedOptions options;
  add_seed_options(app, options);
  std::reverse(args.begin(), args.end());  // CLI11 takes the arguments last first
  app.parse(args);
  return options;
}

}  // namespace

TEST_CASE("a seed line holds one decimal unsigned 64-bit number", "[seed]") {
  CHECK(parse_seed("0") == 0u);
  CHECK(parse_seed("77") == 77u);
  CHECK(parse_seed("007") == 7u);
  CHECK(parse_seed("  42\t\r") == 42u);
  CHECK(parse_seed("18446744073709551615") == 18446744073709551615ull);
  for (const std::string bad : {"", " ", "\r", "-1", "+1", "18446744073709551616", "99999999999999999999999", "12 34",
                                "0x10", "1e3", "abc", "12a", "1.5"}) {
    INFO("'" << bad << "'");
    CHECK_FALSE(parse_seed(bad).has_value());
  }
}

TEST_CASE("the seed options: --seed N or --seed-stdin, not both", "[seed]") {
  CHECK(parsed({}).seed == SeedOptions::kDefault);
  CHECK_FALSE(parsed({}).from_stdin);
  CHECK(parsed({"--seed", "12345678901234"}).seed == 12345678901234ull);
  CHECK(parsed({"--seed-stdin"}).from_stdin);
  CHECK_THROWS_AS(parsed({"--seed", "5", "--seed-stdin"}), CLI::ExcludesError);
  CHECK(parsed({"--seed", "010"}).seed == 10u);  // decimal, not octal
  CHECK(parsed({"--seed", "18446744073709551615"}).seed == 18446744073709551615ull);
  for (const std::string bad : {"five", "-1", "0x10", "18446744073709551616", ""}) {
    INFO("--seed '" << bad << "'");
    CHECK_THROWS_AS(parsed({"--seed", bad}), CLI::ParseError);
  }
}

TEST_CASE("the seed comes from the option, or from the first line of standard input", "[seed]") {
  SeedOptions options;
  options.seed = 9;
  std::istringstream unread("123\n");
  std::ostringstream errors;
  CHECK(resolve_seed(options, unread, errors, "11-brute-force") == 9u);
  CHECK(unread.tellg() == 0);  // standard input is not read without --seed-stdin
  options.from_stdin = true;
  for (const auto& [input, seed] :
       std::vector<std::pair<std::string, std::uint64_t>>{{"123\n", 123},
                                                          {"123", 123},
                                                          {"  5 \r\nmore lines\n", 5},
                                                          {"18446744073709551615\n", 18446744073709551615ull}}) {
    std::istringstream in(input);
    CHECK(resolve_seed(options, in, errors, "11-brute-force") == seed);
  }
  CHECK(errors.str().empty());
}

TEST_CASE("a missing or bad seed on standard input is one line on stderr naming the program", "[seed]") {
  SeedOptions options;
  options.from_stdin = true;
  for (const std::string input : {"", "\n", "-3\n", "12 13\n", "seed=4\n", "18446744073709551616\n"}) {
    INFO("'" << input << "'");
    std::istringstream in(input);
    std::ostringstream errors;
    CHECK_FALSE(resolve_seed(options, in, errors, "16-ssef").has_value());
    const std::string message = errors.str();
    CHECK(message.rfind("16-ssef: --seed-stdin: ", 0) == 0);
    CHECK(std::count(message.begin(), message.end(), '\n') == 1);
    CHECK(message.back() == '\n');
  }
}
