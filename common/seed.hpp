// The seed of a driver's random inputs: `--seed N` (default: a fixed value, so that a run can be
// repeated), or `--seed-stdin`: one decimal unsigned 64-bit number on the first line of standard input,
// read before the experiment starts, so that the seed is neither on the command line nor in the
// environment (how the autograder passes it).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

namespace CLI {
class App;
}

namespace cudamatch {

struct SeedOptions {
  static constexpr std::uint64_t kDefault = 77;
  std::uint64_t seed = kDefault;  // --seed N
  bool from_stdin = false;        // --seed-stdin
};

// Adds --seed N and --seed-stdin (which exclude each other) to `app`.
void add_seed_options(CLI::App& app, SeedOptions& options);

// The seed that `line` holds: decimal digits whose value fits in 64 bits, with optional spaces, tabs
// and a carriage return around them; std::nullopt for anything else (a sign, a second number, ...).
std::optional<std::uint64_t> parse_seed(const std::string& line);

// The seed to use: options.seed, or with --seed-stdin the first line of `in`. A missing or bad line
// on `in` gives one line on `errors`, starting with `program`, and std::nullopt (exit status 2).
std::optional<std::uint64_t> resolve_seed(const SeedOptions& options, std::istream& in, std::ostream& errors,
                                          const char* program);

}  // namespace cudamatch
