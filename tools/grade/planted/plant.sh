#!/usr/bin/env bash
# Submissions, each the reference solution of one lesson with one planted fault or cheat, to show that
# the grader takes from each exactly the items it deserves to lose (expected.json says which;
# check_planted.py compares a grading run with it; tools/gpu/grade_check.sh grades them all):
#   hang          11-brute-force bf_v1.cu: v1's kernel sleeps forever (an empty loop on a volatile
#                 local is not enough: the H200 run showed ptxas removing it)
#   missing-sync  03-bank-conflicts transpose.cu: the tiled transpose loses its __syncthreads()
#   out-of-bounds 04-vectorized-loads vector_copy.cu: the vector copy writes one int past the end
#
#   tools/grade/planted/plant.sh OUTDIR [COURSE]      then, for each NAME:
#   cudamatch-grade --submission OUTDIR/NAME --lessons NN --sanitize --timeout 60
# and compare with the same lesson graded from the solutions (docs/grading.md, "Proving the grader").
set -euo pipefail
out=${1:?usage: plant.sh OUTDIR [COURSE]}
course=${2:-$(cd "$(dirname "$0")/../../.." && pwd)}

# plant NAME LESSON FILE SED_SCRIPT GREP_PROOF: every solution file of LESSON (the files a student
# edits), FILE with SED_SCRIPT applied; GREP_PROOF must then match, so that a solution that has moved
# on cannot make the plant silently miss.
plant() {
  plant_with "$1" "$2" "$3" "$5" sed -e "$4"
}

# plant_with NAME LESSON FILE GREP_PROOF COMMAND...: as plant, FILE filtered through COMMAND (e.g. an
# awk program, for a fault that moves text around).
plant_with() {
  local name=$1 lesson=$2 file=$3 proof=$4
  shift 4
  mkdir -p "$out/$name/lessons"
  cp -r "$course/solutions/$lesson" "$out/$name/lessons/"
  # The lessons this one builds on ("uses" in its lesson.json, e.g. 07-reductions' block sums for the
  # matchers) come from the solutions too: only the planted fault differs from the reference.
  local used
  for used in $(python3 -c 'import json, sys; print(*json.load(open(sys.argv[1])).get("uses", []))' \
                  "$course/lessons/$lesson/lesson.json"); do
    cp -r "$course/solutions/$used" "$out/$name/lessons/"
  done
  "$@" < "$course/solutions/$lesson/$file" > "$out/$name/lessons/$lesson/$file"
  if ! grep -q -e "$proof" "$out/$name/lessons/$lesson/$file" ||
     cmp -s "$course/solutions/$lesson/$file" "$out/$name/lessons/$lesson/$file"; then
    echo "plant.sh: could not plant '$name' in solutions/$lesson/$file" >&2
    exit 1
  fi
  echo "$out/$name: lessons/$lesson/$file"
}

plant hang 11-brute-force bf_v1.cu \
  '/^__global__ void bf_v1_kernel/,/extern __shared__/ s|^\(  extern __shared__.*\)$|\1\n  for (;;) __nanosleep(1000);  // PLANTED: never ends|' \
  'PLANTED: never ends'
plant missing-sync 03-bank-conflicts transpose.cu \
  '/^__global__ void transpose_tiled_kernel/,/^}/ s|^\(  *\)__syncthreads();.*$|\1// PLANTED: __syncthreads() removed|' \
  'PLANTED: __syncthreads() removed'
plant out-of-bounds 04-vectorized-loads vector_copy.cu \
  '/^__global__ void copy_vector_kernel/,/^}/ s|^\(  if (i < plan.tail) dst\[tail_start + i\] = src\[tail_start + i\];\)$|\1\n  if (i == 0) dst[tail_start + plan.tail] = 0;  // PLANTED: one int past the end|' \
  'PLANTED: one int past the end'

# The cheats (issue 17): submissions that try to score what they did not earn.
#   replay-pointer   11 bf_v3.cu: v3 searches once with v0 and replays the remembered count for the same
#                    text and pattern addresses (the fresh text of each timed run makes it wrong)
#   replay-content   11 bf_v3.cu: the same, keyed on the text's first 4 KiB and the pattern's bytes
#                    (every timed run misses: v3 is v0 plus a copy, and slow)
#   slow-correct     11 bf_v3.cu: v3 is v0 (right, but the performance and ncu items must fail)
#   include-solution 00 saxpy.cu: only includes ../../solutions/00-measuring/saxpy.cu (the copy the
#                    grader builds in has no solutions/: does not compile)
#   include-absolute 00 saxpy.cu: only includes the reference by its absolute path (the audit of what
#                    each compile read fails the build)
#   symlink          00 saxpy.cu: a link to the reference (refused: the starter's copy is graded)
#   compile-error    00 the solution, 01 coalescing.cu with a syntax error (only 01's items are lost)
v3_key_pointer='const void* where[2] = {text.data(), pattern.data()}; key.assign(reinterpret_cast<const std::uint8_t*>(where), reinterpret_cast<const std::uint8_t*>(where + 2))'
v3_key_content='key = text_sample(text); key.insert(key.end(), pattern.host().begin(), pattern.host().end())'
replaced_v3() {  # $1: the snippet that ends the file with its own v3 instead of the solution's
  sed -e '1i #include <map>\n#include <vector>' -e "1i #define REPLAY_KEY ${2:-}" \
      -e 's|^const GpuVersion v3{|[[maybe_unused]] static const GpuVersion v3_computed{|' \
      -e '${/^}  \/\/ namespace cudamatch::lesson11$/d}' | cat - "$here/$1"
}
here=$(cd "$(dirname "$0")" && pwd)
plant_with replay-pointer 11-brute-force bf_v3.cu 'PLANTED (replay)' replaced_v3 replay_v3_count.inc "$v3_key_pointer"
plant_with replay-content 11-brute-force bf_v3.cu 'PLANTED (replay)' replaced_v3 replay_v3_count.inc "$v3_key_content"
plant_with slow-correct 11-brute-force bf_v3.cu 'PLANTED (slow-correct)' replaced_v3 slow_v3.inc
plant_with include-solution 00-measuring saxpy.cu 'PLANTED: the reference, by a relative path' \
  echo '#include "../../solutions/00-measuring/saxpy.cu"  // PLANTED: the reference, by a relative path'
plant_with include-absolute 00-measuring saxpy.cu 'PLANTED: the reference, by its absolute path' \
  echo "#include \"$course/solutions/00-measuring/saxpy.cu\"  // PLANTED: the reference, by its absolute path"
mkdir -p "$out/symlink/lessons"
cp -r "$course/solutions/00-measuring" "$out/symlink/lessons/"
ln -sf "$course/solutions/00-measuring/saxpy.cu" "$out/symlink/lessons/00-measuring/saxpy.cu"
echo "$out/symlink: lessons/00-measuring/saxpy.cu -> $course/solutions/00-measuring/saxpy.cu"
plant compile-error 01-coalescing coalescing.cu '1i PLANTED: this line is not C++' 'PLANTED: this line is not C++'
cp -r "$course/solutions/00-measuring" "$out/compile-error/lessons/"

# The lesson-point plants (issue 17): code that computes the right answers but misses the lesson's
# point, which only the tests added for it catch.
#   naive-tiled   02-shared-memory matmul.cu: the tiled kernel's body is the naive kernel's (no shared
#                 memory; the step1 PTX test fails, without a GPU too)
#   v1-order      06-streams schedules.cpp: version 2 queues chunk by chunk, in version 1's order
#   missing-wait  17-out-of-core stream_v2.cpp: v2's readers refill a pinned buffer without waiting
#                 for the copy that reads it
plant_with naive-tiled 02-shared-memory matmul.cu 'PLANTED: the naive kernel.s body' awk '
  /^__global__ void matmul_/ { kernel = /naive/ ? "naive" : "tiled" }
  /^}/ { kernel = ""; body = 0 }
  body && kernel == "naive" { naive = naive $0 "\n" }
  body && kernel == "tiled" { next }
  { print }
  kernel != "" && !body && /\) \{$/ {
    body = 1
    if (kernel == "tiled") printf "  // PLANTED: the naive kernel'"'"'s body\n%s", naive
  }'
plant v1-order 06-streams schedules.cpp \
  '/^void run_async_v2/,/^}/ {
     s|^\(  for (.*) \)pipeline\.copy_to_device(chunks\[i\], streams\[i % streams\.size()\]);$|\1{  // PLANTED: version 1'"'"'s order\n    const cudaStream_t s = streams[i % streams.size()];\n    pipeline.copy_to_device(chunks[i], s);\n    pipeline.compute(chunks[i], s);\n    pipeline.copy_to_host(chunks[i], s);\n  }|
     /pipeline\.compute(chunks\[i\], streams/d
     /pipeline\.copy_to_host(chunks\[i\], streams/d
   }' \
  "PLANTED: version 1's order"
plant missing-wait 17-out-of-core stream_v2.cpp \
  '/^void v2_stream/,/^}/ s|^\(  *\)CUDA_CHECK(cudaEventSynchronize(slot\.copied\.get()));.*$|\1// PLANTED: the reader does not wait for the slot'"'"'s copy|' \
  "PLANTED: the reader does not wait for the slot's copy"

# Issue 19's lessons, caught by their PTX tests (without a GPU too):
#   naive-block-sums    07-reductions block_sums.cuh: the starter's block sums (right, but serial and
#                       with many barriers) in an otherwise solved lesson
#   constant-in-global  08-constant-memory constant_memory.cu: the pattern and the table declared
#                       __device__ instead of __constant__ (right counts, read from global memory)
plant_with naive-block-sums 07-reductions block_sums.cuh "PLANTED: the starter's block sums" \
  sh -c 'echo "// PLANTED: the starter'"'"'s block sums"; cat "$1"' _ "$course/lessons/07-reductions/block_sums.cuh"
plant constant-in-global 08-constant-memory constant_memory.cu \
  's|^__constant__ \(.*\)$|__device__ \1  // PLANTED: global memory|' \
  'PLANTED: global memory'

# The lessons added after issue 19, each plant missing one point of its lesson:
#   kmp-v3-full-overlap     12-kmp kmp_v3.cu: scan_stride always reads m - 1 bytes past its stride (v2's
#                           rule: right counts, a thread's work grows with m; the host tests of the bytes
#                           each thread scans fail, without a GPU too)
#   kmp-v3-stops-at-stride  12-kmp kmp_v3.cu: scan_stride stops at its stride's end (misses every
#                           occurrence that crosses it; the host tests fail, without a GPU too)
#   prefetch-no-advice      09-unified-memory prepare.cu: prepare_for_gpu prefetches without the
#                           read-mostly advice (right counts; the tests read the range's attributes)
#   reinstantiate           10-launch-overhead graph_search.cu: instantiate_or_update always instantiates
#                           anew, never updates the executable graph in place
#   pfac-v2-global          18-multi-pattern pfac_v2.cu: v2's walks step in the global trie (v1's
#                           GlobalTrie), the hot image copied into shared memory and never read
#   pfac-v3-missing-barrier 18-multi-pattern pfac_v3.cu: no barrier between the shared filter's and hot
#                           image's writes and the first reads
#   pfac-v3-every-position  18-multi-pattern pfac_v3.cu: every position passes the shared filter (right
#                           counts; at 1,000 patterns every position walks, at 100,000 the global filter
#                           still sorts them: the bandwidth item must drop)
plant kmp-v3-full-overlap 12-kmp kmp_v3.cu \
  's|^\(  while (i < n && \)i - state < end\() {\)$|\1i < end + static_cast<std::size_t>(m) - 1\2  // PLANTED: m - 1 bytes past the stride|' \
  'PLANTED: m - 1 bytes past the stride'
plant kmp-v3-stops-at-stride 12-kmp kmp_v3.cu \
  's|^\(  while (i < n && \)i - state < end\() {\)$|\1i < end\2  // PLANTED: stops at the stride'"'"'s end|' \
  "PLANTED: stops at the stride's end"
plant prefetch-no-advice 09-unified-memory prepare.cu \
  '/^bool prepare_for_gpu/,/^}/ s|^\(  *\)advise(text, n, cudaMemAdviseSetReadMostly, device);$|\1// PLANTED: no read-mostly advice|' \
  'PLANTED: no read-mostly advice'
plant reinstantiate 10-launch-overhead graph_search.cu \
  '/^void instantiate_or_update/,/^}/ {
     /^  if (exec) {$/,/^  }$/c\  // PLANTED: never updated in place, always instantiated anew
   }' \
  'PLANTED: never updated in place'
plant pfac-v2-global 18-multi-pattern pfac_v2.cu \
  's|^\(  *\)const HotTrie trie{s_image, hot, warm, tables};$|\1const GlobalTrie trie{tables};  // PLANTED: the global trie, not the hot image|' \
  'PLANTED: the global trie, not the hot image'
plant pfac-v3-missing-barrier 18-multi-pattern pfac_v3.cu \
  '/^    pfac_v3_kernel/,/^}/ s|^\(  *\)__syncthreads();  // the filter and the hot image are in, the hot counters zeroed$|\1// PLANTED: no barrier before the filter is read|' \
  'PLANTED: no barrier before the filter is read'
plant pfac-v3-every-position 18-multi-pattern pfac_v3.cu \
  's|^\(  *\)candidates = window_candidates(filter, words);$|\1candidates = 0xffffu;  // PLANTED: every position a candidate|' \
  'PLANTED: every position a candidate'
