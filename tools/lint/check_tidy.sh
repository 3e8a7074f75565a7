#!/usr/bin/env bash
# Runs clang-tidy with the checks of .clang-tidy over the host code: every .cpp file git tracks that
# BUILD_DIR's compile_commands.json compiles (once each, though both tracks compile the tests). Names
# the findings and exits 1. Checks and their findings change between clang-tidy releases, so the check
# holds for Debian 12's, release 14; another release, or none, skips (exit 77).
#   tools/lint/check_tidy.sh BUILD_DIR [JOBS]   (JOBS: files checked at once, default: the CPUs)
set -euo pipefail
build=${1:?usage: tools/lint/check_tidy.sh BUILD_DIR [JOBS]}
jobs=${2:-$(nproc)}
tidy=${CLANG_TIDY:-clang-tidy}
source "$(dirname "$0")/llvm_release.sh"
require_llvm_release check_tidy "$tidy" 14 clang-tidy
if [ ! -f "$build/compile_commands.json" ]; then
  echo "check_tidy: no $build/compile_commands.json (configure with CMAKE_EXPORT_COMPILE_COMMANDS=ON)"
  exit 2
fi
build=$(cd "$build" && pwd)
cd "$(dirname "$0")/../.."
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# A compile database of the tracked .cpp files, one command each (the first; the tracks differ only in
# include folders), so that clang-tidy checks each file once.
git ls-files -- '*.cpp' > "$work/tracked"
python3 - "$root" "$build/compile_commands.json" "$work/tracked" "$work/compile_commands.json" << 'EOF'
import json, os, sys
root, database, tracked_list, out = sys.argv[1:]
tracked = set(open(tracked_list).read().split())
seen, commands = set(), []
for entry in json.load(open(database)):
    path = os.path.relpath(os.path.join(entry["directory"], entry["file"]), root)
    if path in tracked and path not in seen:
        seen.add(path)
        commands.append(entry)
json.dump(commands, open(out, "w"), indent=1)
EOF
mapfile -t files < <(python3 -c 'import json, sys; print("\n".join(e["file"] for e in json.load(open(sys.argv[1]))))' \
  "$work/compile_commands.json")
if [ ${#files[@]} -eq 0 ]; then
  echo "check_tidy: $build/compile_commands.json compiles no tracked .cpp file"
  exit 2
fi

# JOBS clang-tidy processes at a time, a few files each. A finding in a header comes once per file that
# includes it: the list keeps one of each. clang-tidy exits non-zero when a file does not compile.
status=0
printf '%s\0' "${files[@]}" | xargs -0 -P "$jobs" -n 4 "$tidy" -p "$work" --quiet > "$work/output" 2> "$work/errors" ||
  status=$?
mapfile -t findings < <(grep -E '^[^ ].*:[0-9]+:[0-9]+: (warning|error): ' "$work/output" | sed "s|^$root/||" | sort -u)
if [ ${#findings[@]} -gt 0 ]; then
  echo "check_tidy: ${#findings[@]} finding(s) in ${#files[@]} files (.clang-tidy says what each check is for):"
  printf '  %s\n' "${findings[@]}"
  exit 1
fi
if [ $status -ne 0 ]; then
  echo "check_tidy: clang-tidy failed (exit $status):"
  cat "$work/output" "$work/errors"
  exit 1
fi
echo "check_tidy: ${#files[@]} files, no finding"
