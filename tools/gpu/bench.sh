#!/usr/bin/env bash
# The benchmarks of the matcher lessons on a GPU machine, for docs/results/: `cudamatch bench` on the
# three 4 MB corpora (GPU baseline and best versions, batched searches, brute force's best replayed
# from a CUDA graph one search at a time and a length's searches in one graph (issue 20's latency
# targets), the CPU references beside them: time per search and the speedup table) and on the corpora repeated to 1 GiB (device-resident
# throughput beside the device read bandwidth), each with the auto rows: the matcher the dispatch table
# (tools/cudamatch/dispatch.json) picks, against the fastest of the run. Each run's results folder (the
# tables, CSV and plot: bench.txt, bench.csv, bench.png) is OUTDIR/gpu-bench-4mb/ or OUTDIR/gpu-bench-1gib/, its whole output
# (stderr too) OUTDIR/gpu-bench-4mb.log or OUTDIR/gpu-bench-1gib.log.
#
#   tools/gpu/bench.sh OUTDIR [BUILD_DIR]   (default build/default, built beforehand)
set -uo pipefail
out=${1:?usage: tools/gpu/bench.sh OUTDIR [BUILD_DIR]}
build=${2:-build/default}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root" || exit 2
[ -d .deps/datasets ] && export CUDAMATCH_DATA="$root/.deps/datasets"
mkdir -p "$out"
cudamatch="$build/bin/cudamatch"
algorithms=bf,kmp,bm,sunday,epsm,ssef,auto

"$cudamatch" bench --backend cuda,cpu --batch --graph --algorithms "$algorithms" --patterns 100 \
  --out "$out/gpu-bench-4mb" > "$out/gpu-bench-4mb.log" 2>&1
echo "== bench, 4 MB corpora, 100 patterns per m: exit $?"
"$cudamatch" bench --backend cuda --mib 1024 --algorithms "$algorithms" --patterns 5 --no-peers \
  --out "$out/gpu-bench-1gib" > "$out/gpu-bench-1gib.log" 2>&1
echo "== bench, corpora repeated to 1 GiB, 5 patterns per m: exit $?"
