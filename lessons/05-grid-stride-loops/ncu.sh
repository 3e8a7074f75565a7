#!/usr/bin/env bash
# Lesson 05 ncu exercise: occupancy and DRAM throughput of SAXPY for each launch shape.
#   lessons/05-grid-stride-loops/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]   (default build/default --n 33554432)
[ $# -le 1 ] && set -- "${1:-build/default}" --n 33554432
exec "$(dirname "$0")/../../tools/gpu/ncu_kernels.sh" 05-grid-stride-loops "saxpy_" \
  launch__grid_size,sm__warps_active.avg.pct_of_peak_sustained_active,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__inst_executed.sum,gpu__time_duration.sum \
  "$@"
