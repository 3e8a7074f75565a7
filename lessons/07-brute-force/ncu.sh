#!/usr/bin/env bash
# Lesson 07 ncu exercise: the profile of v0, v1 and v2 on a 256 MiB text, m = 16.
#   lessons/07-brute-force/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]   (default build/default --mib 256 --lengths 16)
build=${1:-build/default}
shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--mib 256 --lengths 16)
exec ncu --clock-control none --kernel-name regex:"bf_v[012]_kernel" --launch-count 10 \
  --metrics gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__thread_inst_executed_per_inst_executed.ratio,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum \
  "$build/bin/07-brute-force" "${args[@]}" --patterns 1 --reps 1
