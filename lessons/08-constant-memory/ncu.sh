#!/usr/bin/env bash
# Lesson 08 ncu exercise: how many constant-cache requests does one warp-wide read of constant memory
# make when the warp reads one address (the pattern) and when it reads up to 32 (the table)?
#   lessons/08-constant-memory/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]   (default build/default --mib 64)
# idc__requests counts the requests to the constant cache that serves indexed constant loads (LDC);
# the shared-memory wavefronts and global load requests are the same question for the other two
# placements. --clock-control none (tools/gpu/ncu_kernels.sh) keeps the GPU's own clocks.
[ $# -le 1 ] && set -- "${1:-build/default}" --mib 64
exec "$(dirname "$0")/../../tools/gpu/ncu_kernels.sh" 08-constant-memory "(count|lookup)_(constant|shared|global)_kernel" \
  idc__requests.sum,idc__requests_lookup_miss.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum,gpu__time_duration.sum \
  "$@"
