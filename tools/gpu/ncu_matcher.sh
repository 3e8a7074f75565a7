#!/usr/bin/env bash
# The profile of a matcher lesson (11-16): one launch of each version's kernel on a 256 MiB text at
# one pattern length, with the metrics of the lessons' profiling tables.
#   tools/gpu/ncu_matcher.sh LESSON KERNEL_REGEX [BUILD_DIR [DRIVER_ARGS...]]
#   (defaults: build/default, --mib 256 --lengths 16 --corpora E.coli)
# Metrics, in the order of the tables:
#   gpu__time_duration.sum                                    time of the launch
#   dram__throughput.avg.pct_of_peak_sustained_elapsed        DRAM throughput, % of peak
#   dram__bytes_read.sum                                      bytes read from DRAM (against the text size)
#   sm__warps_active.avg.pct_of_peak_sustained_active         achieved occupancy
#   smsp__average_warp_latency_issue_stalled_*.ratio          the stall reasons (the largest is the top one)
#   smsp__thread_inst_executed_per_inst_executed.ratio        active threads per instruction (of 32)
#   smsp__sass_average_branch_targets_threads_uniform.pct     branch uniformity
#   l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum  shared-memory bank conflicts (loads)
#   l1tex__t_sectors/requests_pipe_lsu_mem_global_op_ld.sum   global load sectors and requests (their
#                                                             ratio: sectors per request, 4 when coalesced)
set -euo pipefail
lesson=$1 kernels=$2
shift 2
build=${1:-build/default}
[ $# -gt 0 ] && shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--mib 256 --lengths 16 --corpora E.coli)
metrics=gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,dram__bytes_read.sum
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio,smsp__average_warp_latency_issue_stalled_short_scoreboard.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_wait.ratio,smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_mio_throttle.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_barrier.ratio,smsp__average_warp_latency_issue_stalled_no_instruction.ratio
metrics+=,smsp__average_warp_latency_issue_stalled_not_selected.ratio,smsp__average_warp_latency_issue_stalled_selected.ratio
metrics+=,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__sass_average_branch_targets_threads_uniform.pct
metrics+=,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
# Each version runs warm-up + timed searches; --launch-count with a kernel filter profiles the first
# launch of each matching kernel name only when the names differ, so cap the launches per name.
source "$(dirname "$0")/driver_args.sh"
append_unless_given args --patterns 1 --reps 1
# CUDAMATCH_NCU_FLAGS: more ncu options, split at spaces (tools/gpu/check.sh: --csv --page raw)
# shellcheck disable=SC2086
exec ncu --clock-control none ${CUDAMATCH_NCU_FLAGS:-} --kernel-name "regex:$kernels" --launch-count 40 --metrics "$metrics" \
  "$build/bin/$lesson" "${args[@]}"
