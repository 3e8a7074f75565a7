#!/usr/bin/env bash
# Grades one submission with cudamatch-grade against the instructor's course. The self-hosted GPU
# runner workflow beside this file (grade-on-gpu-runner.yml), grade_many.sh and the Gradescope
# run_autograder_remote call it.
#   grade_submission.sh --course DIR --submission DIR --out DIR [--lessons LIST] [--build-dir DIR] [-- GRADER OPTIONS]
# It writes OUT/results.json (Gradescope's format), OUT/junit.xml, OUT/table.txt (the terminal table,
# also printed on stdout) and OUT/grade.log (the grader's progress, also on stderr). When
# GITHUB_STEP_SUMMARY is set, it appends the table to that file.
# More grader options go after --, or in CUDAMATCH_GRADE_OPTIONS (split on spaces), e.g. "--sanitize --ncu".
# The grader is $CUDAMATCH_GRADE when set. Otherwise it is COURSE/build/grader/bin/cudamatch-grade,
# built or brought up to date first by COURSE/tools/grade/build_grader.sh. Runs that share a build
# folder wait for each other (flock).
# Exit status: the grader's, or 2 for this script's bad arguments and 3 when the grader cannot be built.
set -euo pipefail
prog=grade_submission

meaning() {
  case $1 in
    0) echo "graded" ;;
    1) echo "graded; --require-full was given and a lesson is below its full score" ;;
    2) echo "not graded: bad arguments or a rubric error" ;;
    3) echo "not graded: nothing could be graded (no GPU, toolchain or build, or an output could not be written)" ;;
    *) echo "the grader failed" ;;
  esac
}
die() {
  echo "$prog: exit $1: $2" >&2
  exit "$1"
}

usage="grade_submission.sh --course DIR --submission DIR --out DIR [--lessons LIST] [--build-dir DIR] [-- GRADER OPTIONS]"
course="" submission="" out="" lessons="" build_dir=""
while [ $# -gt 0 ]; do
  case $1 in
    --course | --submission | --out | --lessons | --build-dir)
      [ $# -ge 2 ] || die 2 "$1 needs a value"
      case $1 in
        --course) course=$2 ;;
        --submission) submission=$2 ;;
        --out) out=$2 ;;
        --lessons) lessons=$2 ;;
        --build-dir) build_dir=$2 ;;
      esac
      shift 2
      ;;
    --) shift; break ;;
    *) die 2 "unknown argument '$1' (usage: $usage)" ;;
  esac
done
if [ -z "$course" ] || [ -z "$submission" ] || [ -z "$out" ]; then die 2 "--course, --submission and --out are required"; fi
[ -d "$course" ] || die 2 "the course $course is not a directory"
[ -d "$submission" ] || die 2 "the submission $submission is not a directory"
course=$(cd "$course" && pwd)
submission=$(cd "$submission" && pwd)
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ -d "$course/solutions" ]; then
  echo "$prog: warning: $course/solutions exists: keep it out of the course you grade against" \
    "(the code being graded may read it)" >&2
fi

extra=("$@")
read -ra more <<< "${CUDAMATCH_GRADE_OPTIONS:-}"
args=(--course "$course" --submission "$submission" --results "$out/results.json" --junit "$out/junit.xml")
[ -z "$lessons" ] || args+=(--lessons "$lessons")
[ -z "$build_dir" ] || args+=(--build-dir "$build_dir")
args+=("${more[@]}" "${extra[@]}")
# An empty variable (an unset repository variable in a workflow) means "not set".
[ -n "${CUDAMATCH_DATA:-}" ] || unset CUDAMATCH_DATA
[ -n "${CUDAARCHS:-}" ] || unset CUDAARCHS

grader=${CUDAMATCH_GRADE:-}
grader_build=$course/build/grader
lock=""
[ -z "$build_dir" ] || lock=$build_dir.lock
[ -n "$grader" ] || lock=${lock:-$grader_build.lock}
if [ -n "$lock" ] && command -v flock > /dev/null; then
  mkdir -p "$(dirname "$lock")"
  exec 9> "$lock"
  flock -n 9 || { echo "$prog: waiting for the grading run that holds $lock" >&2; flock 9; }
fi
if [ -z "$grader" ]; then
  [ -f "$course/tools/grade/build_grader.sh" ] || die 3 "$course has no tools/grade/build_grader.sh: is it a cudamatch course?"
  bash "$course/tools/grade/build_grader.sh" "$grader_build" >&2 || die 3 "cannot build the grader (build_grader.sh exited with status $?)"
  grader=$grader_build/bin/cudamatch-grade
fi
[ -x "$grader" ] || die 3 "the grader $grader is not an executable file"

rm -f "$out/results.json" "$out/junit.xml" "$out/table.txt" "$out/grade.log"
echo "$prog: $grader ${args[*]}" >&2
# The table (stdout) to table.txt; the progress (stderr) to grade.log and on to stderr. The grader does
# not inherit the lock's descriptor, so that nothing it leaves running can hold the lock.
set +e
{ "$grader" "${args[@]}" 2>&1 >&3 3>&- 9>&- | tee "$out/grade.log" >&2; } 3> "$out/table.txt"
status=${PIPESTATUS[0]}
set -e
cat "$out/table.txt"

if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
  {
    echo "### cudamatch-grade: exit status $status, $(meaning "$status")"
    echo
    if [ -s "$out/table.txt" ]; then
      echo "<pre>"
      sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g' "$out/table.txt"
      echo "</pre>"
    else
      echo "No table. The end of the grader's output:"
      echo
      echo "<pre>"
      tail -n 3 "$out/grade.log" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'
      echo "</pre>"
    fi
  } >> "$GITHUB_STEP_SUMMARY"
fi
echo "$prog: exit $status: $(meaning "$status")" >&2
exit "$status"
