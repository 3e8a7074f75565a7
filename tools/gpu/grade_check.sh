#!/usr/bin/env bash
# The autograder's proof on a GPU machine: the solutions track must score full marks, the starter
# only what it gives for free, and each planted fault or cheat (tools/grade/planted/plant.sh) must
# score what tools/grade/planted/expected.json says (planted.txt: expected against got, per item). Tables, results.json and JUnit files go to OUTDIR (and OUTDIR/grade.tar.gz).
#
#   tools/gpu/grade_check.sh OUTDIR
#
#   GRADE_PARTS    any of: solutions student planted reference (default: all four)
#   GRADE_LESSONS  the lessons of the solutions and student parts (default: every lesson of lessons/course.json)
#   GRADE_JOBS     --test-jobs (default 8)
#   GRADE_FLAGS    the item options of the solutions and student parts (default: --sanitize --ncu)
#   GRADE_PLANTS   the planted submissions to grade (default: every one in tools/grade/planted/expected.json)
#   GRADE_PLANT_TIMEOUT  the plants' --timeout, seconds a test case (default 60; the sanitizer item gets 4x:
#                  lesson 18's took about 200 s on an H200, so grade its plants with 120)
set -uo pipefail
out=${1:?usage: tools/gpu/grade_check.sh OUTDIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
mkdir -p "$out"
[ -d .deps/root/usr ] && export CMAKE_PREFIX_PATH="$root/.deps/root/usr"
[ -d .deps/datasets ] && export CUDAMATCH_DATA="$root/.deps/datasets"
parts=${GRADE_PARTS:-solutions student planted reference}
lessons=${GRADE_LESSONS:-$(python3 -c 'import json; l = json.load(open("lessons/course.json"))["lessons"]; print(l[0][:2] + "-" + l[-1][:2])')}
jobs=${GRADE_JOBS:-8}
read -r -a flags <<< "${GRADE_FLAGS---sanitize --ncu}"
wants() { [[ " $parts " == *" $1 "* ]]; }
started=$(date +%s)
say() { echo "== [$(( $(date +%s) - started )) s] $*"; }

{ cmake --preset default && cmake --build --preset default --target cudamatch-grade; } > "$out/build-grader.log" 2>&1
say "grader build: exit $?"
grade=build/default/bin/cudamatch-grade

# grade NAME ARGS...: one grading run, its table, results.json, JUnit and progress log in OUTDIR.
grade() {
  local name=$1
  shift
  "$grade" --test-jobs "$jobs" --results "$out/$name.json" --junit "$out/$name.xml" "$@" \
    > "$out/$name.txt" 2> "$out/$name.log"
  say "$name: exit $? - $(grep -E '^(total|TOTAL)' "$out/$name.txt" | tail -1)"
}

wants solutions && grade solutions --track solutions --lessons "$lessons" "${flags[@]}"
wants student && grade student --track student --lessons "$lessons" "${flags[@]}"
if wants planted; then
  # Submissions run as 'nobody' (the grader runs as root here), who must not read the reference:
  # its sources, the history that holds them, or a build of them.
  reference=(solutions); for place in .git build; do [ -e "$place" ] && reference+=("$place"); done
  chmod -R o-rwx "${reference[@]}"
  tools/grade/planted/plant.sh "$out/planted" > /dev/null
  : > "$out/planted.txt"
  for name in $(python3 -c 'import json,sys; print(" ".join(json.load(open(sys.argv[1]))["plants"]))' \
                tools/grade/planted/expected.json); do
    [ -n "${GRADE_PLANTS:-}" ] && [[ " $GRADE_PLANTS " != *" $name "* ]] && continue
    plant_lessons=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["plants"][sys.argv[2]]["lessons"])' \
                    tools/grade/planted/expected.json "$name")
    grade "planted-$name" --submission "$out/planted/$name" --lessons "$plant_lessons" --sanitize --ncu --timeout "${GRADE_PLANT_TIMEOUT:-60}"
    python3 tools/grade/planted/check_planted.py "$name" "$out/planted-$name.json" >> "$out/planted.txt"
  done
  chmod -R o+rX "${reference[@]}"
  cat "$out/planted.txt"
fi
# The reference ratio: the solutions scored against the solutions built beside them (full marks).
wants reference && [ -d build/grade-solutions/bin ] &&
  grade reference --track solutions --lessons 11,14 --reference-build build/grade-solutions

# Written outside OUTDIR first: tar exits 1 when the folder it reads gains its own archive.
archive=$(mktemp "${TMPDIR:-/tmp}/grade.XXXXXX")
tar -czf "$archive" -C "$out" --exclude=./grade.tar.gz --exclude=./planted .
[ -s "$archive" ] && mv "$archive" "$out/grade.tar.gz"
