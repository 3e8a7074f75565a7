// The files a search reads: its FILE operands, or with -r (grep's --recursive) every regular file below
// the folders among them, found as the search goes.
#pragma once

#include <functional>
#include <utility>
#include <string>
#include <vector>

namespace cudamatch::cli {

// One file to search: the path to open ("-": standard input) and the name its output lines carry.
struct WalkedFile {
  std::string path;
  std::string shown;
  bool folder = false;  // a folder operand without -r: not read ("Is a directory"), as grep does not read it
};

// grep's --include, --exclude and --exclude-dir, in the order given: which files and folders a search
// reads (shell globs, fnmatch), matched as grep matches them: a name found in a folder whole, an operand
// whole or from after any of its slashes (--exclude='d/*' skips the operand d/c.c).
class FileFilters {
 public:
  enum class Kind { include, exclude, exclude_dir };
  void add(Kind kind, std::string glob);  // --exclude-dir's trailing slashes dropped
  // A file: the last --include or --exclude that matches decides; none: read, unless the first of them
  // is an --include.
  bool wants_file(const std::string& name, bool operand) const;
  // A folder: read unless an --exclude-dir matches.
  bool wants_folder(const std::string& name, bool operand) const;

 private:
  static bool matches(const std::string& glob, const std::string& name, bool operand);
  struct Filter {
    Kind kind;
    std::string glob;
  };
  std::vector<Filter> filters_;
};

// Whether the operands name more than one file for grep -r's purpose of printing names: several
// operands, none (the current folder), or a folder among them.
bool walk_names_several(const std::vector<std::string>& operands);

// Calls visit(file) for each file in turn until it returns false; then returns false, else true.
// Without `recursive`, the operands as they are (a folder among them fails when it is read, as grep's
// does). With it, each folder operand stands for the regular files below it, in the order of their
// names within each folder (a subfolder's files where its name falls), found as the walk goes; links
// met inside are not followed and FIFOs and devices are skipped, as grep -r does. Other operands
// ("-", files, missing paths) stay as given. No operand: the current folder, its files shown without
// a leading "./" (grep -r PATTERN). A folder or entry that cannot be read is reported to
// on_error("PATH: reason") and the walk goes on. `filters` drop files and folders, operands too
// (not "-").
bool walk_operands(const std::vector<std::string>& operands, bool recursive, const FileFilters& filters,
                   const std::function<bool(const WalkedFile&)>& visit,
                   const std::function<void(const std::string&)>& on_error);

}  // namespace cudamatch::cli
