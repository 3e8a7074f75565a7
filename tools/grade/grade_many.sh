#!/usr/bin/env bash
# Grades every submission in a folder on this machine (one with a GPU), one cudamatch-grade run each.
# Each folder directly in SUBMISSIONS is one submission in the repository's layout: the folders of an
# unpacked Gradescope export, or clones of the students' repositories.
#   tools/grade/grade_many.sh [--course DIR] [--lessons LIST] SUBMISSIONS OUT [-- GRADER OPTIONS]
# For each folder NAME it writes OUT/NAME/ (results.json, junit.xml, table.txt, grade.log and run.log,
# from github/grade_submission.sh). It also writes OUT/scores.csv, one row per submission:
# submission,score,max_score,status,meaning. The course is --course, else the one this script is in.
# All runs share one build (OUT/.build and OUT/.build-course), so each submission recompiles only
# the files it changes.
# Exit status: 0 when every submission was graded (status 0 or 1), else the largest status.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
course=$(cd "$here/../.." && pwd)
lessons=""
usage="usage: grade_many.sh [--course DIR] [--lessons LIST] SUBMISSIONS OUT [-- GRADER OPTIONS]"
die() {
  echo "grade_many: $1" >&2
  exit 2
}
positional=()
while [ $# -gt 0 ]; do
  case $1 in
    --course) [ $# -ge 2 ] || die "$usage"; course=$2; shift 2 ;;
    --lessons) [ $# -ge 2 ] || die "$usage"; lessons=$2; shift 2 ;;
    --) shift; break ;;
    -*) die "unknown option '$1' ($usage)" ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -eq 2 ] || die "$usage"
submissions=${positional[0]}
out=${positional[1]}
[ -d "$submissions" ] || die "$submissions is not a directory"
names=()
for dir in "$submissions"/*/; do
  [ -d "$dir" ] && names+=("$(basename "$dir")")
done
[ ${#names[@]} -gt 0 ] || die "no submission folders in $submissions"
mkdir -p "$out"
out=$(cd "$out" && pwd)

csv() {  # one quoted CSV field
  local text=${1//\"/\"\"}
  printf '"%s"' "$text"
}
scores=$out/scores.csv
echo "submission,score,max_score,status,meaning" > "$scores"
worst=0
for name in "${names[@]}"; do
  dir=$out/$name
  mkdir -p "$dir"
  status=0
  bash "$here/github/grade_submission.sh" --course "$course" --submission "$submissions/$name" --out "$dir" \
    --lessons "$lessons" --build-dir "$out/.build" -- "$@" > /dev/null 2> "$dir/run.log" || status=$?
  meaning=$(tail -n 1 "$dir/run.log" | sed -n 's/^grade_submission: exit [0-9]*: //p')
  score="" max=""
  if [ -s "$dir/results.json" ]; then
    read -r score max < <(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(d.get("score", ""), d.get("max_score", ""))' "$dir/results.json") || true
  fi
  echo "$(csv "$name"),$score,$max,$status,$(csv "$meaning")" >> "$scores"
  echo "grade_many: $name: ${score:-?} of ${max:-?}, exit $status: $meaning"
  [ "$status" -le 1 ] || [ "$status" -le "$worst" ] || worst=$status
done
echo "grade_many: $scores"
exit "$worst"
