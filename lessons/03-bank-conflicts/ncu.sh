#!/usr/bin/env bash
# Lesson 03 ncu exercise: how many shared-memory bank conflicts does each tile kernel have?
#   lessons/03-bank-conflicts/ncu.sh [BUILD_DIR]     (default build/default)
# Profiles every launch of transpose_tiled_kernel<32> (tile[32][32]) and transpose_tiled_kernel<33>
# (tile[32][33]) on a 2048 x 2048 matrix: validation, warm-up and timed runs, each with the same counts.
# --clock-control none keeps the GPU's own clocks, so the durations are comparable with the driver's.
build=${1:-build/default}
# CUDAMATCH_NCU_FLAGS: more ncu options, split at spaces (tools/gpu/check.sh: --csv --page raw)
# shellcheck disable=SC2086
exec ncu --clock-control none ${CUDAMATCH_NCU_FLAGS:-} --kernel-name regex:transpose_tiled_kernel \
  --metrics l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__sass_inst_executed_op_shared_ld.sum,gpu__time_duration.sum \
  "$build/bin/03-bank-conflicts" --rows 2048 --cols 2048 --reps 1
