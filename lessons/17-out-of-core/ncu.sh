#!/usr/bin/env bash
# Lesson 17's profiling exercise is a timeline, not a kernel's counters: whether reading, copying and
# searching overlap is a matter of time across streams and threads, which ncu (one kernel at a time,
# serialized) cannot show. With Nsight Systems installed, the driver's run as a trace; without, the
# driver's table of stages and versions.
#   lessons/17-out-of-core/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]   (default: build/default, a 1 GiB file)
build=${1:-build/default}
[ $# -gt 0 ] && shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--mib 1024 --reps 1)
if command -v nsys > /dev/null; then
  exec nsys profile --trace=cuda,osrt --stats=true -o 17-out-of-core-trace --force-overwrite true \
    "$build/bin/17-out-of-core" "${args[@]}"
fi
echo "nsys (Nsight Systems) is not installed: read the driver's table of stages instead."
exec "$build/bin/17-out-of-core" "${args[@]}"
