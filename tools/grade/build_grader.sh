#!/usr/bin/env bash
# Installs what is missing (install_dependencies.sh) and builds cudamatch-grade alone, without the
# course's tests, into BUILD_DIR (default: build/grader): BUILD_DIR/bin/cudamatch-grade.
#   tools/grade/build_grader.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/grader}
"$root/tools/grade/install_dependencies.sh"
export PATH="$PATH:/usr/local/cuda/bin"
# The student track: the grader does not need solutions/, which a Gradescope image leaves out.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCUDAMATCH_TRACK=student -DCUDAMATCH_BUILD_TESTS=OFF > /dev/null
cmake --build "$build" --target cudamatch-grade > /dev/null
echo "build_grader: $build/bin/cudamatch-grade"
