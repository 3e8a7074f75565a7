// The subcommands of `cudamatch`, one file each.
#pragma once

#include <CLI/CLI.hpp>

namespace cudamatch::cli {

// Exit statuses, as grep uses them: 0 success, 1 nothing found, 2 trouble (bad input, no GPU).
inline constexpr int kExitOk = 0;
inline constexpr int kExitTrouble = 2;

// Registers `cudamatch info` on `app`; `run` is set to the subcommand's action.
void add_info_command(CLI::App& app, std::function<int()>& run);

}  // namespace cudamatch::cli
