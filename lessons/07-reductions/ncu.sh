#!/usr/bin/env bash
# Lesson 07 ncu exercise: how close each sum and scan runs to DRAM's peak, and how many global and
# shared atomic instructions each histogram executes.
#   lessons/07-reductions/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]   (default build/default --mib 256 --hist-mib 64)
[ $# -le 1 ] && set -- "${1:-build/default}" --mib 256 --hist-mib 64
exec "$(dirname "$0")/../../tools/gpu/ncu_kernels.sh" 07-reductions "reduce_|scan_|tile_totals|histogram_|DeviceReduce|DeviceScan" \
  dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,dram__bytes_write.sum,smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum,smsp__sass_inst_executed_op_shared_atom.sum,gpu__time_duration.sum \
  "$@"
