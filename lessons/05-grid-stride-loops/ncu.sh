#!/usr/bin/env bash
# Lesson 05 ncu exercise: occupancy and DRAM throughput of SAXPY for each launch shape.
#   lessons/05-grid-stride-loops/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]   (default build/default --n 33554432)
build=${1:-build/default}
shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--n 33554432)
source "$(dirname "$0")/../../tools/gpu/driver_args.sh"
append_unless_given args --reps 1 --warmup 0
# CUDAMATCH_NCU_FLAGS: more ncu options, split at spaces (tools/gpu/check.sh: --csv --page raw)
# shellcheck disable=SC2086
exec ncu --clock-control none ${CUDAMATCH_NCU_FLAGS:-} --kernel-name regex:"saxpy_" \
  --metrics launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,gpu__time_duration.sum \
  "$build/bin/05-grid-stride-loops" "${args[@]}"
