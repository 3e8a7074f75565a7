#!/usr/bin/env bash
# Lesson 12 ncu exercise: every version's kernel on a 256 MiB E. coli text, m = 16.
#   lessons/12-kmp/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]
exec "$(dirname "$0")/../../tools/gpu/ncu_matcher.sh" 12-kmp "kmp_v[0-2]_kernel" "$@"
