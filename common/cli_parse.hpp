// Command-line parsing for the drivers and tools (CLI11): --help exits 0, a usage error prints
// CLI11's message and gives exit status 2, as every cudamatch program does.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace cudamatch {

// `--json FILE`, the option of every lesson driver: write the results to FILE as well
// (common/results_json.hpp), for the autograder.
inline void add_json_option(CLI::App& app, std::string& path) {
  app.add_option("--json", path, "also write the results to FILE as JSON (read by the autograder)")
      ->option_text("FILE");
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
