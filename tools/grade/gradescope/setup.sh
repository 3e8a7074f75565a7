#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image; the zip that
# make_zip.sh writes is unpacked in /autograder/source (the course, without solutions/).
# It installs the toolchain, builds cudamatch-grade, and builds the starter of the graded lessons once,
# so that grading a submission recompiles only the files the student changed.
# Gradescope's machines have no NVIDIA GPU: there, builds, host tests and sass items are graded and
# the GPU items are reported "not run" (their points leave the maximum), unless the zip grades on your
# GPU host (make_zip.sh --remote); see docs/grading.md, "Grading where there is no GPU".
set -euo pipefail
source=/autograder/source
if [ -f "$source/gpu-host.env" ]; then
  # A zip from make_zip.sh --remote: run_autograder grades on your GPU host and needs only ssh here.
  command -v ssh > /dev/null || { apt-get update -qq && apt-get install -y -qq --no-install-recommends openssh-client > /dev/null; }
  exit 0
fi
"$source/tools/grade/build_grader.sh" "$source/build/grader"
export PATH="$PATH:/usr/local/cuda/bin"

lessons=()
[ -s "$source/grade-lessons.txt" ] && lessons=(--lessons "$(tr -d ' \n' < "$source/grade-lessons.txt")")
empty=$(mktemp -d)
"$source/build/grader/bin/cudamatch-grade" --course "$source" --submission "$empty" --build-dir /autograder/grade-build \
  "${lessons[@]}" > /dev/null || echo "setup: the starter's grading run exited with status $?"
rmdir "$empty"
