#!/usr/bin/env bash
# Checks that every C++/CUDA source git tracks is formatted as .clang-format says; names the files
# that are not and exits 1. Formatting differs between clang-format releases, so the check holds
# for the release the tree was formatted with (Debian 12's, 14); another release skips (exit 77).
#   tools/lint/check_format.sh [--fix]
set -euo pipefail
cd "$(dirname "$0")/../.."
formatter=${CLANG_FORMAT:-clang-format}
source tools/lint/llvm_release.sh
require_llvm_release check_format "$formatter" 14 clang-format
mapfile -t sources < <(git ls-files -- '*.cpp' '*.hpp' '*.cu' '*.cuh' '*.inc')
if [ "${1:-}" = "--fix" ]; then
  "$formatter" -i "${sources[@]}"
  exit 0
fi
unformatted=()
for file in "${sources[@]}"; do
  [ -f "$file" ] || continue
  "$formatter" "$file" | cmp -s - "$file" || unformatted+=("$file")
done
if [ ${#unformatted[@]} -gt 0 ]; then
  echo "check_format: ${#unformatted[@]} file(s) differ from .clang-format (fix: tools/lint/check_format.sh --fix):"
  printf '  %s\n' "${unformatted[@]}"
  exit 1
fi
echo "check_format: ${#sources[@]} files formatted"
