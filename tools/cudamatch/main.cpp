// cudamatch: exact string matching on the GPU, and the numbers behind it.
#include <exception>
#include <functional>
#include <iostream>

#include "commands.hpp"
#include "common/cli_parse.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cudamatch: exact string matching on the GPU (grep -F over bytes), and the numbers behind it"};
  app.require_subcommand(1);
  std::function<int()> run;
  cudamatch::cli::add_info_command(app, run);
  if (const int status = cudamatch::parse_command_line(app, argc, argv); status >= 0) return status;
  try {
    return run();
  } catch (const std::exception& e) {
    std::cerr << "cudamatch: error: " << e.what() << '\n';
    return cudamatch::cli::kExitTrouble;
  }
}
