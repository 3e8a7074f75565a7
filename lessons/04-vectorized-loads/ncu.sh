#!/usr/bin/env bash
# Lesson 04 ncu exercise: instructions and DRAM throughput of the 4-, 8- and 16-byte copies.
#   lessons/04-vectorized-loads/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]   (default build/default --mib 256)
[ $# -le 1 ] && set -- "${1:-build/default}" --mib 256
exec "$(dirname "$0")/../../tools/gpu/ncu_kernels.sh" 04-vectorized-loads "copy_" \
  smsp__inst_executed.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum \
  "$@"
