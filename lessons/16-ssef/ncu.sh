#!/usr/bin/env bash
# Lesson 16 ncu exercise: every version's search kernel and the GPU table build, on a 256 MiB E. coli
# text at m = 256, where SSEF examines one 16-byte block in 240 bytes. Compare dram__bytes_read.sum with
# the text's 268.4 MB: the examined blocks lie in one 32-byte sector in 15 (13% of the text).
#   lessons/16-ssef/ncu.sh [BUILD_DIR [DRIVER_ARGS...]]   (default: --mib 256 --lengths 256 --corpora E.coli)
build=${1:-build/default}
[ $# -gt 0 ] && shift
[ $# -eq 0 ] && set -- --mib 256 --lengths 256 --corpora E.coli
exec "$(dirname "$0")/../../tools/gpu/ncu_matcher.sh" 16-ssef "ssef_v[0-2]_kernel|build_table_kernel" "$build" "$@"
