#!/usr/bin/env bash
# Lesson 18 ncu exercise: the first launch of each PFAC kernel (v1, v2, v3) on a 256 MiB bible.txt text
# with 1,000 patterns: where do the walks read, global memory or shared memory?
#   lessons/18-multi-pattern/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]   (default: build/default)
# Metrics:
#   gpu__time_duration.sum                                    time of the launch
#   dram__bytes_read.sum                                      bytes read from DRAM (against the text size)
#   l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum           global load requests (the walk's steps in v1)
#   l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum            global load sectors
#   l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum      shared-memory load wavefronts (v2, v3)
#   smsp__thread_inst_executed_per_inst_executed.ratio        active threads per instruction (of 32)
#   sm__warps_active.avg.pct_of_peak_sustained_active         achieved occupancy
set -euo pipefail
build=${1:-build/default}
[ $# -gt 0 ] && shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--mib 256 --sets 1000 --reps 1 --versions v1,v2,v3)
metrics=gpu__time_duration.sum,dram__bytes_read.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
metrics+=,smsp__thread_inst_executed_per_inst_executed.ratio,sm__warps_active.avg.pct_of_peak_sustained_active
# Each version's kernel runs in three passes: count in the warm-up and the timed calls, then count per
# block and write for the find_all check after them; --launch-count 1 with a filter that matches one
# version at a time profiles its first launch, the warm-up's count of the whole text.
# One ncu run per version: with `--log-file FILE` among CUDAMATCH_NCU_FLAGS (tools/gpu/check.sh), each run
# writes FILE.vN and the rows of all three end up in FILE, one header (the last run alone would be kept).
read -r -a flags <<< "${CUDAMATCH_NCU_FLAGS:-}"
log=""
for ((i = 0; i < ${#flags[@]}; ++i)); do
  if [ "${flags[i]}" = --log-file ] && [ $((i + 1)) -lt ${#flags[@]} ]; then
    log=${flags[i + 1]}
    flags=("${flags[@]:0:i}" "${flags[@]:i+2}")
    break
  elif [[ ${flags[i]} == --log-file=* ]]; then
    log=${flags[i]#--log-file=}
    flags=("${flags[@]:0:i}" "${flags[@]:i+1}")
    break
  fi
done
for v in 1 2 3; do
  ncu --clock-control none "${flags[@]}" ${log:+--log-file "$log.v$v"} --kernel-name "regex:pfac_v${v}_kernel" \
    --launch-count 1 --metrics "$metrics" "$build/bin/18-multi-pattern" "${args[@]}"
done
if [ -n "$log" ]; then
  # With --csv: the first file whole (its notes, the header, the units row, its rows), then the others'
  # rows, their quoted lines after their own header and units row. Otherwise the three reports in turn.
  if [[ " ${flags[*]} " == *" --csv "* ]]; then
    { cat "$log.v1"; for v in 2 3; do grep '^"' "$log.v$v" | tail -n +3 || true; done; } > "$log"
  else
    cat "$log.v1" "$log.v2" "$log.v3" > "$log"
  fi
  rm -f "$log.v1" "$log.v2" "$log.v3"
fi
