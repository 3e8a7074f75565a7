#!/usr/bin/env bash
# The whole GPU check, in one call on a machine with an NVIDIA GPU: build and test both tracks,
# compute-sanitizer (memcheck, racecheck) over every GPU test program, every lesson driver, and each
# lesson's ncu exercise. Logs go to OUTDIR/logs.tar.gz, the drivers' results and the raw ncu metrics to
# OUTDIR/data/; a summary and the driver tables are printed.
#
#   tools/gpu/check.sh OUTDIR
#
# The whole check takes longer than some GPU sessions allow one command; two variables split it:
#   CHECK_PARTS    what to run, any of: default student sanitizers drivers (default: all four; the
#                  later parts build the default preset when the default part did not run)
#   CHECK_LESSONS  an extended regex over lesson ids for the sanitizer, driver and ncu parts (default:
#                  every lesson), e.g. '1[1-6]'
#   CHECK_CTEST    ctest arguments of the default part, which runs the README's test command
#                  (./run-tests -- $CHECK_CTEST), e.g. "-j 8 -R '^(0[0-9]|1[0-4])-'" for the lessons 00-14
#                  half of the suite and "-j 8 -E '^(0[0-9]|1[0-4])-'" for the rest: the whole suite takes
#                  longer than one 10-minute call
# Sanitizer runs set CUDAMATCH_TEST_QUICK=1: the matcher tests' smaller random set.
#
# Header-only dependencies and the corpora may be staged under .deps/ (../shared/gpu/prepare.sh).
set -uo pipefail
out=${1:?usage: tools/gpu/check.sh OUTDIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
logs=$(mktemp -d)
[ -d .deps/root/usr ] && export CMAKE_PREFIX_PATH="$root/.deps/root/usr"
[ -d .deps/datasets ] && export CUDAMATCH_DATA="$root/.deps/datasets"
export CUDAMATCH_REQUIRE_GPU=1  # a GPU test that cannot see the GPU is an error here, not a skip
parts=${CHECK_PARTS:-default student sanitizers drivers}
lessons=${CHECK_LESSONS:-.}
summary=()
note() { summary+=("$1"); echo "== $1"; }
wants() { [[ " $parts " == *" $1 "* ]]; }

nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv > "$logs/nvidia-smi.csv" 2>&1

if wants default; then
  ctest_args=()
  eval "ctest_args=(${CHECK_CTEST:-})"  # the words as a shell splits them, quotes honoured
  ./run-tests -- "${ctest_args[@]}" > "$logs/default.log" 2>&1
  note "./run-tests -- ${CHECK_CTEST:-} (solutions): exit $? - $(grep -E 'tests passed|tests failed' "$logs/default.log" | tail -1)"
  while read -r line; do note "   FAILED: $line"; done < <(grep -E '^\s+[0-9]+ - .*\((Failed|Timeout|SEGFAULT)\)' "$logs/default.log")
elif wants sanitizers || wants drivers; then
  { cmake --preset default && cmake --build --preset default; } > "$logs/default-build.log" 2>&1
  note "default build: exit $?"
fi
if wants student; then
  cmake --workflow --preset student > "$logs/student.log" 2>&1
  note "student workflow (starter): exit $? - $(grep -E 'tests passed|tests failed' "$logs/student.log" | tail -1)"
  while read -r line; do note "   starter failed: $line"; done < <(grep -E '^\s+[0-9]+ - .*\(Failed\)' "$logs/student.log")
fi

if [ -x build/default/bin/cudamatch ]; then
  build/default/bin/cudamatch info > "$logs/info.txt" 2>&1
  note "cudamatch info: exit $?"
fi

# [oom] tests fail an allocation on purpose, which the sanitizer reports as an API error; [large]
# tests take minutes under the sanitizers and add no code path that the smaller tests do not cover.
for tests in build/default/bin/test-*; do
  wants sanitizers || break
  name=$(basename "$tests")
  [[ ${name#test-} =~ ^($lessons) ]] || continue
  for tool in memcheck racecheck; do
    CUDAMATCH_TEST_QUICK=1 compute-sanitizer --tool "$tool" --error-exitcode 99 "$tests" "[gpu]~[oom]~[large]" \
      > "$logs/sanitizer-$tool-$name.log" 2>&1
    note "compute-sanitizer $tool $name: exit $? - $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|test cases' "$logs/sanitizer-$tool-$name.log" | tr '\n' ' ')"
  done
done

# Each lesson's driver with its defaults writes its results (--json) to OUTDIR/data/<lesson>.json, and
# each ncu exercise its raw metrics (ncu --csv --page raw) to OUTDIR/data/ncu/<lesson>.csv: the data the
# documentation's figures are rendered from (docs/results/data/<gpu>/, tools/course/render.py).
mkdir -p "$out/data/ncu"
for name in $(python3 -c 'import json; print(*json.load(open("lessons/course.json"))["lessons"])'); do
  wants drivers || break
  [[ $name =~ ^($lessons) ]] || continue
  [ -x "build/default/bin/$name" ] || { note "driver $name: not built"; continue; }
  "build/default/bin/$name" --json "$out/data/$name.json" > "$logs/driver-$name.txt" 2>&1
  note "driver $name: exit $?"
  if [ -x "lessons/$name/ncu.sh" ]; then
    CUDAMATCH_NCU_FLAGS="--csv --page raw --log-file $out/data/ncu/$name.csv" "lessons/$name/ncu.sh" build/default \
      > "$logs/ncu-$name.txt" 2>&1
    note "ncu exercise $name: exit $?"
    [ -s "$out/data/ncu/$name.csv" ] || rm -f "$out/data/ncu/$name.csv"  # 06, 09, 10 and 17 use nsys when there is one
  fi
done

mkdir -p "$out"
tar -czf "$out/logs.tar.gz" -C "$logs" .
printf '%s\n' "${summary[@]}" > "$out/summary.txt"
echo
cat "$out/summary.txt"
for f in "$logs"/info.txt "$logs"/driver-*.txt; do [ -f "$f" ] && { echo; echo "--- $(basename "$f")"; cat "$f"; }; done
