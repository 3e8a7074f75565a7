#!/usr/bin/env bash
# Writes the zip to upload as a Gradescope autograder: setup.sh and run_autograder at its root, the
# course beside them (without solutions/, which student code run by the grader could read, and without
# build outputs, clones and caches), and grade-lessons.txt naming the lessons of the assignment.
#   tools/grade/gradescope/make_zip.sh OUT.zip [LESSONS]      e.g. autograder-07.zip 07
set -euo pipefail
out=$(realpath -m "${1:?usage: make_zip.sh OUT.zip [LESSONS, e.g. 07 or 00-03]}")
lessons=${2:-}
root=$(cd "$(dirname "$0")/../../.." && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
tar -C "$root" --exclude=./build --exclude=./.git --exclude=./.deps --exclude=./datasets/cache --exclude=./solutions \
  --exclude=__pycache__ -cf - . | tar -C "$stage" -xf -
cp "$root/tools/grade/gradescope/setup.sh" "$root/tools/grade/gradescope/run_autograder" "$stage/"
[ -z "$lessons" ] || echo "$lessons" > "$stage/grade-lessons.txt"
rm -f "$out"
(cd "$stage" && shopt -s dotglob && python3 -m zipfile -c "$out" ./*)
echo "make_zip: $out (lessons: ${lessons:-every lesson with a rubric})"
