// The files a search reads: its FILE operands, or with -r (grep's --recursive) every regular file below
// the folders among them.
#pragma once

#include <string>
#include <vector>

namespace cudamatch::cli {

struct WalkedFiles {
  std::vector<std::string> files;   // in the order searched
  std::vector<std::string> errors;  // "PATH: reason" for each folder that could not be read
};

// Without `recursive`, the operands as they are (a folder among them fails later, as grep's does). With
// it, each folder operand is replaced by the regular files below it, in the order of their paths'
// names within each folder (a subfolder's files where its name falls); links met inside are not
// followed and other kinds of file (FIFOs, devices) are skipped, as grep -r does. Other operands ("-", files, missing
// paths) stay as given. No operand at all: the current folder, its files named without a leading "./" (grep -r
// PATTERN).
WalkedFiles walk_operands(const std::vector<std::string>& operands, bool recursive);

}  // namespace cudamatch::cli
