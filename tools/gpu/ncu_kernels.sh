#!/usr/bin/env bash
# The profile of a lesson's kernels from one timed run without warm-up (unless the driver arguments
# say otherwise): every launch whose kernel name matches KERNEL_REGEX, with the given ncu metrics.
#   tools/gpu/ncu_kernels.sh LESSON KERNEL_REGEX METRICS [BUILD_DIR [DRIVER_ARGS...]]   (default build/default)
set -euo pipefail
lesson=$1 kernels=$2 metrics=$3
shift 3
build=${1:-build/default}
[ $# -gt 0 ] && shift
args=("$@")
source "$(dirname "$0")/driver_args.sh"
append_unless_given args --reps 1 --warmup 0
# CUDAMATCH_NCU_FLAGS: more ncu options, split at spaces (tools/gpu/check.sh: --csv --page raw)
# shellcheck disable=SC2086
exec ncu --clock-control none ${CUDAMATCH_NCU_FLAGS:-} --kernel-name "regex:$kernels" --metrics "$metrics" \
  "$build/bin/$lesson" "${args[@]}"
