#!/usr/bin/env bash
# Lesson 00 ncu exercise: what did one SAXPY really move, and for how long?
#   lessons/00-measuring/ncu.sh [BUILD_DIR]     (default build/default)
# Profiles the 4th SAXPY launch of the driver (after warm-up). --clock-control none keeps the GPU's
# own clocks, so the duration is comparable with the driver's CUDA-event time.
build=${1:-build/default}
# CUDAMATCH_NCU_FLAGS: more ncu options, split at spaces (tools/gpu/check.sh: --csv --page raw)
# shellcheck disable=SC2086
exec ncu --clock-control none ${CUDAMATCH_NCU_FLAGS:-} --kernel-name regex:saxpy_kernel --launch-skip 3 --launch-count 1 \
  --metrics dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed \
  "$build/bin/00-measuring" --reps 5
