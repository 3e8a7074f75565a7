#!/usr/bin/env bash
# CTest: compute-sanitizer's racecheck must report the race of 03-bank-conflicts-race-demo (the tiled
# transpose without its __syncthreads()), even in a run where no element comes out wrong.
#   check_race_demo.sh COMPUTE_SANITIZER RACE_DEMO
# Exit status: 0 racecheck reported hazards; 1 it reported none, or something else went wrong;
# 77 no CUDA device (CTest: skipped), unless CUDAMATCH_REQUIRE_GPU is set.
set -uo pipefail
usage="usage: check_race_demo.sh COMPUTE_SANITIZER RACE_DEMO"
sanitizer=${1:?$usage}
demo=${2:?$usage}
size=256  # 64 tiles: racecheck checks the accesses of every one, so more would only be slower

"$demo" --size "$size"
status=$?
if [ "$status" -eq 77 ]; then
  if [ -n "${CUDAMATCH_REQUIRE_GPU:-}" ] && [ "$CUDAMATCH_REQUIRE_GPU" != 0 ]; then
    echo "FAIL: no CUDA device, and CUDAMATCH_REQUIRE_GPU is set"
    exit 1
  fi
  echo "SKIPPED: no CUDA device (the demo says why above)"
  exit 77
fi
if [ "$status" -ne 0 ]; then
  echo "FAIL: the race demo exited with status $status on its own"
  exit 1
fi

log=$("$sanitizer" --tool racecheck "$demo" --size "$size" 2>&1)
echo "$log"
# e.g. "========= RACECHECK SUMMARY: 2 hazards displayed (2 errors, 0 warnings)"
hazards=$(sed -nE 's/.*RACECHECK SUMMARY: ([0-9]+) hazards? displayed.*/\1/p' <<<"$log" | tail -n 1)
if [ -z "$hazards" ]; then
  echo "FAIL: no 'RACECHECK SUMMARY: N hazards displayed' line in compute-sanitizer's output"
  exit 1
fi
if [ "$hazards" -eq 0 ]; then
  echo "FAIL: racecheck reported no hazard in a kernel that has no barrier between the tile's write and read"
  exit 1
fi
echo "PASS: racecheck reported $hazards hazard(s) in the tile kernel without __syncthreads()"
