#!/usr/bin/env bash
# Lesson 09 has no kernel counter to read: page faults and migrations are the driver's work, not the
# kernel's. With Nsight Systems, the driver's run traced with its unified-memory page faults and the
# summary of what moved (the "CUDA Memory Operation Statistics" and "Unified Memory" reports);
# without it, the driver's --counters mode prints the same counters, read through CUPTI.
#   lessons/09-unified-memory/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]   (default build/default --reps 1)
build=${1:-build/default}
[ $# -gt 0 ] && shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--reps 1)
if command -v nsys > /dev/null; then
  exec nsys profile --trace=cuda --cuda-um-cpu-page-faults=true --cuda-um-gpu-page-faults=true --stats=true \
    -o 09-unified-memory-trace --force-overwrite true "$build/bin/09-unified-memory" "${args[@]}"
fi
echo "nsys (Nsight Systems) is not installed: the driver's own unified-memory counters (CUPTI) instead."
exec "$build/bin/09-unified-memory" --counters "${args[@]}"
