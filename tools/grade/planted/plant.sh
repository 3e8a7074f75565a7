#!/usr/bin/env bash
# Three submissions, each the reference solution of one lesson with one planted fault, to show that
# the grader takes from a faulty submission exactly the items that exercise the fault:
#   hang          07-brute-force bf_v1.cu: v1's kernel sleeps forever (an empty loop on a volatile
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
  local name=$1 lesson=$2 file=$3 script=$4 proof=$5
  mkdir -p "$out/$name/lessons"
  cp -r "$course/solutions/$lesson" "$out/$name/lessons/"
  sed -e "$script" "$course/solutions/$lesson/$file" > "$out/$name/lessons/$lesson/$file"
  if ! grep -q -e "$proof" "$out/$name/lessons/$lesson/$file" ||
     cmp -s "$course/solutions/$lesson/$file" "$out/$name/lessons/$lesson/$file"; then
    echo "plant.sh: could not plant '$name' in solutions/$lesson/$file" >&2
    exit 1
  fi
  echo "$out/$name: lessons/$lesson/$file"
}

plant hang 07-brute-force bf_v1.cu \
  '/^__global__ void bf_v1_kernel/,/extern __shared__/ s|^\(  extern __shared__.*\)$|\1\n  for (;;) __nanosleep(1000);  // PLANTED: never ends|' \
  'PLANTED: never ends'
plant missing-sync 03-bank-conflicts transpose.cu \
  '/^__global__ void transpose_tiled_kernel/,/^}/ s|^\(  *\)__syncthreads();.*$|\1// PLANTED: __syncthreads() removed|' \
  'PLANTED: __syncthreads() removed'
plant out-of-bounds 04-vectorized-loads vector_copy.cu \
  '/^__global__ void copy_vector_kernel/,/^}/ s|^\(  if (i < plan.tail) dst\[tail_start + i\] = src\[tail_start + i\];\)$|\1\n  if (i == 0) dst[tail_start + plan.tail] = 0;  // PLANTED: one int past the end|' \
  'PLANTED: one int past the end'
