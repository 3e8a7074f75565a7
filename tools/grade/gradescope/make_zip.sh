#!/usr/bin/env bash
# Writes the zip to upload as a Gradescope autograder: setup.sh and run_autograder at its root, the
# course beside them (without solutions/, which student code run by the grader could read, and without
# build outputs, clones and caches), and grade-lessons.txt naming the lessons of the assignment.
#   tools/grade/gradescope/make_zip.sh [--remote DIR] OUT.zip [LESSONS]      e.g. autograder-11.zip 11
# With --remote DIR the zip grades on your GPU host instead: run_autograder is run_autograder_remote,
# DIR's files (gpu-host.env and the key and known_hosts files it names) are at the zip's root, and the
# course is left out (it is installed on the host).
set -euo pipefail
remote=""
if [ "${1:-}" = --remote ]; then
  remote=$(realpath "${2:?usage: make_zip.sh --remote DIR OUT.zip [LESSONS]}")
  shift 2
  [ -f "$remote/gpu-host.env" ] || { echo "make_zip: no $remote/gpu-host.env" >&2; exit 2; }
fi
out=$(realpath -m "${1:?usage: make_zip.sh [--remote DIR] OUT.zip [LESSONS, e.g. 11 or 00-03]}")
lessons=${2:-}
root=$(cd "$(dirname "$0")/../../.." && pwd)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
if [ -n "$remote" ]; then
  cp -R "$remote/." "$stage/"
  cp "$root/tools/grade/gradescope/setup.sh" "$stage/"
  cp "$root/tools/grade/gradescope/run_autograder_remote" "$stage/run_autograder"
else
  tar -C "$root" --exclude=./build --exclude=./.git --exclude=./.deps --exclude=./datasets/cache --exclude=./solutions \
    --exclude=__pycache__ -cf - . | tar -C "$stage" -xf -
  cp "$root/tools/grade/gradescope/setup.sh" "$root/tools/grade/gradescope/run_autograder" "$stage/"
fi
[ -z "$lessons" ] || echo "$lessons" > "$stage/grade-lessons.txt"
rm -f "$out"
(cd "$stage" && shopt -s dotglob && python3 -m zipfile -c "$out" ./*)
echo "make_zip: $out (lessons: ${lessons:-every lesson with a rubric}${remote:+; grades on the host in $remote/gpu-host.env})"
