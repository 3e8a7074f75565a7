#!/usr/bin/env bash
# Lesson 13 ncu exercise: every version's search kernel, and v2's good-suffix kernel, on a 256 MiB
# E. coli text, m = 16.
#   lessons/13-boyer-moore/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]
exec "$(dirname "$0")/../../tools/gpu/ncu_matcher.sh" 13-boyer-moore "bm_v[0-2]_kernel|good_suffix_kernel" "$@"
