#!/usr/bin/env bash
# Lesson 10's question is on the host's side of the launch: how long does the CPU spend in each CUDA
# call of one search? Nsight Systems answers it. Its CUDA API summary (cuda_api_sum) lists, per call,
# the number of calls and the median time in the call: compare cudaLaunchKernel (one per kernel of a
# search, plus cudaMemsetAsync and cudaMemcpyAsync on the plain path) with cudaGraphLaunch (one per
# replay, whatever the graph holds). The metric: the median ns per call of cudaLaunchKernel against
# cudaGraphLaunch, and the number of calls per search.
#   lessons/10-launch-overhead/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]   (default: build/default, 50 calls per step)
# Without nsys, Nsight Compute shows the other half, the device side: the duration of the kernels of one
# search (gpu__time_duration.sum: the empty kernel, the search, the publish, the graph's pattern load)
# against the end-to-end time the driver prints, i.e. how little of it the GPU works.
build=${1:-build/default}
[ $# -gt 0 ] && shift
args=("$@")
[ ${#args[@]} -eq 0 ] && args=(--corpora bible.txt --small-kib 0 --reps 50 --warmup 5)
if command -v nsys > /dev/null; then
  exec nsys profile --trace=cuda --stats=true --force-overwrite true -o 10-launch-overhead-trace \
    "$build/bin/10-launch-overhead" "${args[@]}"
fi
echo "nsys (Nsight Systems) is not installed: the kernels' durations with Nsight Compute instead."
for kernel in empty_kernel bf_v0_kernel publish_kernel load_kernel; do
  ncu --clock-control none --metrics gpu__time_duration.sum --kernel-name regex:"$kernel" --launch-skip 5 \
    --launch-count 1 "$build/bin/10-launch-overhead" "${args[@]}" | grep -E '^ +[a-zA-Z_:<>()]+.*\(|gpu__time_duration'
done
