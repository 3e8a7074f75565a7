#!/usr/bin/env bash
# Lesson 15 ncu exercise: every version's kernel on a 256 MiB E. coli text, m = 16.
#   lessons/15-epsm/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]
exec "$(dirname "$0")/../../tools/gpu/ncu_matcher.sh" 15-epsm "epsm_v[0-2]_kernel" "$@"
