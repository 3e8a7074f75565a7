#!/usr/bin/env bash
# Lesson 04 ncu exercise: instructions and DRAM throughput of the 4-, 8- and 16-byte copies.
#   lessons/04-vectorized-loads/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]   (default build/default --mib 256)
build=${1:-build/default}
shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--mib 256)
source "$(dirname "$0")/../../tools/gpu/driver_args.sh"
append_unless_given args --reps 1 --warmup 0
# CUDAMATCH_NCU_FLAGS: more ncu options, split at spaces (tools/gpu/check.sh: --csv --page raw)
# shellcheck disable=SC2086
exec ncu --clock-control none ${CUDAMATCH_NCU_FLAGS:-} --kernel-name regex:"copy_" \
  --metrics smsp__inst_executed.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,dram__bytes_read.sum,dram__bytes_write.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,gpu__time_duration.sum \
  "$build/bin/04-vectorized-loads" "${args[@]}"
