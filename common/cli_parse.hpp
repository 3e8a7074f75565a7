// Command-line parsing for the drivers and tools (CLI11): --help exits 0, a usage error prints
// CLI11's message and gives exit status 2, as every cudamatch program does.
#pragma once

#include <CLI/CLI.hpp>
#include <cstddef>
#include <string>
#include <vector>

namespace cudamatch {

// `--json FILE`, the option of every lesson driver: write the results to FILE as well
// (common/results_json.hpp), for the autograder.
inline void add_json_option(CLI::App& app, std::string& path) {
  app.add_option("--json", path, "also write the results to FILE as JSON (read by the autograder)")
      ->option_text("FILE");
}

// The options of the matcher experiment (common/matcher_experiment.hpp) that lesson 14's table
// placement and lesson 16's filter count take too.
// `--mib N`: the text, 1 MiB to 64 GiB.
inline void add_mib_option(CLI::App& app, std::size_t& mib) {
  app.add_option("--mib", mib, "text size in MiB")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 16))
      ->capture_default_str();
}

// `--lengths M,M,...`: the pattern lengths, 1 to `longest` bytes each.
template <class Length>
void add_lengths_option(CLI::App& app, std::vector<Length>& lengths, Length longest) {
  app.add_option("--lengths", lengths, "pattern lengths")
      ->delimiter(',')
      ->check(CLI::Range(Length{1}, longest))
      ->capture_default_str();
}

// `--corpora NAME,...` (bible.txt, E.coli, world192.txt) and `--patterns N`, 1 to `most` patterns drawn
// from each corpus per length (`per` says per what else).
inline void add_corpora_options(CLI::App& app, std::vector<std::string>& corpora, std::size_t& patterns,
                                std::size_t most, const std::string& per) {
  app.add_option("--corpora", corpora, "corpora (bible.txt, E.coli, world192.txt)")
      ->delimiter(',')
      ->capture_default_str();
  app.add_option("--patterns", patterns, "patterns per length" + per)
      ->check(CLI::Range(std::size_t{1}, most))
      ->capture_default_str();
}

// Parses; returns -1 when the program should go on, else the exit status to return.
inline int parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  return -1;
}

}  // namespace cudamatch
