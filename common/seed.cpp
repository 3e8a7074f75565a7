#include "common/seed.hpp"

#include <CLI/CLI.hpp>
#include <charconv>
#include <istream>
#include <ostream>

namespace cudamatch {

void add_seed_options(CLI::App& app, SeedOptions& options) {
  // Parsed here rather than by CLI11, which would take "-1" (as 2^64 - 1), "0x10" and "010" (octal).
  const CLI::Validator decimal(
      [](std::string& text) {
        return parse_seed(text) ? std::string() : "not a decimal unsigned 64-bit number: " + text;
      },
      "");
  CLI::Option* seed = app.add_option_function<std::string>(
                             "--seed", [&options](const std::string& text) { options.seed = *parse_seed(text); },
                             "seed of the random inputs (rotations, patterns)")
                          ->check(decimal)
                          ->type_name("UINT64")
                          ->default_str(std::to_string(SeedOptions::kDefault));
  app.add_flag("--seed-stdin", options.from_stdin,
               "read the seed from standard input instead: one decimal unsigned 64-bit number on the first line")
      ->excludes(seed);
}

std::optional<std::uint64_t> parse_seed(const std::string& line) {
  const char* const blanks = " \t\r";
  const std::size_t begin = line.find_first_not_of(blanks);
  if (begin == std::string::npos) return std::nullopt;
  const std::size_t end = line.find_last_not_of(blanks) + 1;
  const char* const first = line.data() + begin;
  const char* const last = line.data() + end;
  if (*first < '0' || *first > '9') return std::nullopt;  // from_chars would take a '-'
  std::uint64_t seed = 0;
  const auto [stop, error] = std::from_chars(first, last, seed, 10);
  if (error != std::errc() || stop != last) return std::nullopt;
  return seed;
}

std::optional<std::uint64_t> resolve_seed(const SeedOptions& options, std::istream& in, std::ostream& errors,
                                          const char* program) {
  if (!options.from_stdin) return options.seed;
  std::string line;
  if (!std::getline(in, line)) {
    errors << program << ": --seed-stdin: no seed on standard input (expected one decimal unsigned 64-bit number)\n";
    return std::nullopt;
  }
  const std::optional<std::uint64_t> seed = parse_seed(line);
  if (!seed) {
    errors << program << ": --seed-stdin: the first line of standard input is not a decimal unsigned 64-bit number\n";
  }
  return seed;
}

}  // namespace cudamatch
