#!/usr/bin/env bash
# Lesson 01 ncu exercise: sectors per request of each add, loads and stores.
#   lessons/01-coalescing/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]   (default build/default --rows 2048 --cols 2048)
# No warm-up and one timed run: each kernel is profiled three times (validation before, the timed
# run, validation after), with the same counts each time.
build=${1:-build/default}
shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--rows 2048 --cols 2048)
source "$(dirname "$0")/../../tools/gpu/driver_args.sh"
append_unless_given args --reps 1 --warmup 0
# CUDAMATCH_NCU_FLAGS: more ncu options, split at spaces (tools/gpu/check.sh: --csv --page raw)
# shellcheck disable=SC2086
exec ncu --clock-control none ${CUDAMATCH_NCU_FLAGS:-} --kernel-name regex:"add_" \
  --metrics l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,dram__bytes_read.sum,gpu__time_duration.sum \
  "$build/bin/01-coalescing" "${args[@]}"
