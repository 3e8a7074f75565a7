#!/usr/bin/env bash
# Lesson 11 ncu exercise: every version's kernel on a 256 MiB E. coli text, m = 16.
#   lessons/11-brute-force/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]
exec "$(dirname "$0")/../../tools/gpu/ncu_matcher.sh" 11-brute-force "bf_v[0-3]_kernel" "$@"
