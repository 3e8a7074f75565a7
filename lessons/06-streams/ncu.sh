#!/usr/bin/env bash
# Lesson 06 has no counter to read: overlap is a matter of time, not of one kernel. Its exercise is the
# timeline the driver prints, and, for those who have Nsight Systems, the same run as a trace:
#   lessons/06-streams/ncu.sh [BUILD_DIR]     (default build/default)
build=${1:-build/default}
if command -v nsys > /dev/null; then
  exec nsys profile --trace=cuda --stats=true -o 06-streams-trace --force-overwrite true "$build/bin/06-streams" --reps 1
fi
echo "nsys (Nsight Systems) is not installed: read the timelines the driver prints instead."
exec "$build/bin/06-streams" --reps 3
