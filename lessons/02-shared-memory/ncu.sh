#!/usr/bin/env bash
# Lesson 02 ncu exercise: how many times does each kernel read its inputs from global memory?
#   lessons/02-shared-memory/ncu.sh [BUILD_DIR]     (default build/default)
# Profiles the naive and the tiled kernel of one square 2048 run (no warm-up, one timed run: each
# kernel runs twice, once checked, once timed; the cuBLAS kernels do not match the regex) and prints
# one summary per kernel. --clock-control none keeps the GPU's own clocks.
build=${1:-build/default}
# CUDAMATCH_NCU_FLAGS: more ncu options, split at spaces (tools/gpu/check.sh: --csv --page raw)
# shellcheck disable=SC2086
exec ncu --clock-control none ${CUDAMATCH_NCU_FLAGS:-} --kernel-name regex:"matmul_(naive|tiled)" --print-summary per-kernel \
  --metrics l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum \
  "$build/bin/02-shared-memory" --size 2048 --warmup 0 --reps 1
