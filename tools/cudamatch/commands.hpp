// The subcommands of `cudamatch`, one file each.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

namespace cudamatch::cli {

// Exit statuses, as grep uses them: 0 success, 1 nothing found, 2 trouble (bad input, no GPU).
inline constexpr int kExitOk = 0;
inline constexpr int kExitTrouble = 2;

// Each registers one subcommand on `app`; when it is chosen, `run` is set to its action.
void add_info_command(CLI::App& app, std::function<int()>& run);
void add_search_command(CLI::App& app, std::function<int()>& run);
void add_bench_command(CLI::App& app, std::function<int()>& run);

// What `cudamatch --version` prints, one line each: the program's version and track, the CUDA runtime's
// and driver's versions, each GPU or "no CUDA device (why)", and whether Hyperscan is built in (bench's
// hyperscan peer). Works without a GPU or a driver.
std::string version_text();

}  // namespace cudamatch::cli
