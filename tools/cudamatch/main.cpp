// cudamatch: exact string matching on the GPU, and the numbers behind it.
#include <exception>
#include <functional>
#include <iostream>
#include <string>

#include "commands.hpp"
#include "common/cli_parse.hpp"
#include "common/file_io.hpp"
#include "pattern_source.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cudamatch: exact string matching on the GPU (grep -F over bytes), and the numbers behind it"};
  app.require_subcommand(0, 1);
  // Every error one line: CLI11's message, without its second line ("Run with --help ...").
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return "cudamatch: " + std::string(e.what()) + " (--help shows the usage)\n";
  });
  app.set_version_flag("--version", cudamatch::cli::version_text,
                       "print the version, the CUDA runtime and driver, the GPU");
  std::function<int()> run;
  cudamatch::cli::add_info_command(app, run);
  cudamatch::cli::add_search_command(app, run);
  cudamatch::cli::add_bench_command(app, run);
  if (const int status = cudamatch::parse_command_line(app, argc, argv); status >= 0) return status;
  if (!run) {  // no subcommand: the usage, which lists them
    std::cerr << "cudamatch: a subcommand is required (search, bench or info)\n\n" << app.help();
    return cudamatch::cli::kExitTrouble;
  }
  try {
    return run();
  } catch (const cudamatch::cli::UsageError& e) {
    std::cerr << "cudamatch: " << e.what() << '\n';
    return cudamatch::cli::kExitTrouble;
  } catch (const cudamatch::FileError& e) {  // the file and the reason, one line, no "error:" (grep's form)
    std::cerr << "cudamatch: " << e.what() << '\n';
    return cudamatch::cli::kExitTrouble;
  } catch (const std::exception& e) {
    std::cerr << "cudamatch: error: " << e.what() << '\n';
    return cudamatch::cli::kExitTrouble;
  }
}
