# shellcheck shell=bash
# What ./run-tests and ./run-bench share, sourced by both (after `set -euo pipefail`): locate or install
# what a build needs, pick the preset, configure and build. Each step prints one line saying what it did.
# When something the build needs is missing and cannot be had, one line on stderr says what and how to
# get it, and the command exits with one of these statuses (README.md, "Build and test"; --help):
readonly SETUP_BAD_USAGE=2 SETUP_NO_TOOLKIT=3 SETUP_NO_PACKAGE=4 SETUP_NO_PERMISSION=5 SETUP_BUILD_FAILED=6
readonly SETUP_STATUSES="  2  bad arguments
  3  no CUDA toolkit: nvcc neither on the PATH nor in \$CUDA_HOME/bin (default /usr/local/cuda/bin)
  4  a package is missing and apt-get cannot install it (no network, no such package, no apt-get)
  5  a package is missing and this user may not install it (not root, no sudo)
  6  cmake could not configure or build"
# Nothing here but bash itself runs at source time: the tests source this file with only stub commands
# on the PATH.
setup_abspath() { case $1 in /*) echo "$1" ;; *) echo "$setup_caller_dir/$1" ;; esac }
setup_caller_dir=$PWD
setup_name=${0##*/}
setup_script=$(setup_abspath "$0")
setup_root=$(cd "${BASH_SOURCE[0]%/*}/../.." && pwd)
cd "$setup_root" || exit

say() { echo "$setup_name: $*"; }
setup_error() { echo "$setup_name: $*" >&2; }
setup_fail() { # STATUS MESSAGE
  setup_error "$2"
  exit "$1"
}

# --help: the comment block under the sourcing script's first line, then the set-up's exit statuses.
setup_usage() {
  local line
  { read -r _; while IFS= read -r line && [[ $line == \#* ]]; do line=${line#\#} && echo "${line# }"; done; } < "$setup_script"
  echo "$SETUP_STATUSES"
}

# --preset NAME, --corpus-mirror DIR and --help are the commands' own; the other arguments, in order,
# are left in setup_args.
setup_preset="" setup_args=()
setup_parse_options() {
  while [ $# -gt 0 ]; do
    case $1 in
      --preset | --corpus-mirror)
        [ $# -ge 2 ] || setup_fail $SETUP_BAD_USAGE "$1 needs a value (--help)"
        set -- "$1=$2" "${@:3}"
        ;;
      --preset=*) setup_preset=${1#*=} && shift ;;
      --corpus-mirror=*) CUDAMATCH_CORPUS_MIRROR=${1#*=} && shift ;;
      -h | --help) setup_usage && exit 0 ;;
      --) shift && setup_args+=("$@") && break ;;
      *) setup_args+=("$1") && shift ;;
    esac
  done
}

# nvcc on the PATH, else in $CUDA_HOME/bin, which then goes on the PATH (CMake finds nvcc there).
setup_find_cuda_toolkit() {
  local cuda_bin=${CUDA_HOME:-/usr/local/cuda}/bin
  if ! command -v nvcc > /dev/null; then
    [ -x "$cuda_bin/nvcc" ] || setup_fail $SETUP_NO_TOOLKIT "no CUDA toolkit: nvcc is neither on the PATH nor in \
$cuda_bin; install the CUDA Toolkit 12 or newer (https://developer.nvidia.com/cuda-downloads) or put its bin/ on the PATH"
    PATH=$cuda_bin:$PATH
    say "adding $cuda_bin to the PATH"
  fi
  say "CUDA toolkit: $(command -v nvcc), $(nvcc --version | grep -o 'release [0-9.]*')"
}

# The preset named by --preset, else `default` (the native GPU) when nvidia-smi sees a GPU, else FALLBACK,
# saying what that means (WITHOUT_GPU).
setup_choose_preset() { # FALLBACK WITHOUT_GPU
  local gpu
  if [ -n "$setup_preset" ]; then
    say "preset $setup_preset (--preset)"
  elif gpu=$(nvidia-smi -L 2> /dev/null) && [ -n "$gpu" ]; then
    setup_preset=default
    gpu=${gpu%%$'\n'*}
    say "${gpu% (UUID*}: preset default (code for this GPU)"
  else
    setup_preset=$1
    say "no GPU visible to nvidia-smi: preset $setup_preset ($2)"
  fi
}

# Header-only libraries and the corpora staged by ../shared/gpu/prepare.sh, for machines without a package
# manager or network (the GPU machine): .deps/root/usr is a CMake prefix, .deps/datasets the corpora.
setup_staged_deps() {
  if [ -d .deps/root/usr ]; then
    export CMAKE_PREFIX_PATH=$setup_root/.deps/root/usr${CMAKE_PREFIX_PATH:+:$CMAKE_PREFIX_PATH}
    say "using staged .deps/root/usr (CMAKE_PREFIX_PATH)"
  fi
  if [ -z "${CUDAMATCH_DATA:-}" ] && [ -d .deps/datasets ]; then
    export CUDAMATCH_DATA=$setup_root/.deps/datasets
    say "using staged .deps/datasets (CUDAMATCH_DATA)"
  fi
}

# Whether a file matching one of the GLOBs (relative paths) is under a prefix where CMake looks: one of
# CMAKE_PREFIX_PATH, /usr or /usr/local.
setup_under_a_prefix() { # GLOB...
  local prefix glob file prefixes=()
  IFS=: read -ra prefixes <<< "${CMAKE_PREFIX_PATH:-}"
  for prefix in "${prefixes[@]}" /usr /usr/local; do
    for glob in "$@"; do
      for file in "$prefix"/$glob; do [ -f "$file" ] && return 0; done # $glob unquoted: it expands
    done
  done
  return 1
}

# The Debian packages of what is not found: setup_need_command COMMAND PACKAGE (COMMAND on the PATH),
# setup_need_cmake_package NAME PACKAGE (NAMEConfig.cmake where find_package looks: under a prefix, in
# lib/cmake, lib/*/cmake or share/cmake).
setup_found=() setup_missing=()
setup_need_command() {
  if command -v "$1" > /dev/null; then setup_found+=("$1"); else setup_missing+=("$2"); fi
}
setup_need_cmake_package() {
  local config=cmake/$1/${1}Config.cmake
  if setup_under_a_prefix "lib/$config" "lib/*/$config" "share/$config"; then
    setup_found+=("$1")
  else
    setup_missing+=("$2")
  fi
}

# apt-get install PACKAGE..., as root or through sudo. When it cannot, one line says why and what to do,
# and it returns SETUP_NO_PACKAGE or SETUP_NO_PERMISSION.
setup_apt_install() {
  local as_root=(env) via="" err
  if ! command -v apt-get > /dev/null; then
    setup_error "missing $*, and no apt-get here to install them: install them with this system's package \
manager, or stage them under .deps/ (README.md, Prerequisites)"
    return $SETUP_NO_PACKAGE
  fi
  if [ "$(id -u)" != 0 ]; then
    if ! command -v sudo > /dev/null; then
      setup_error "missing $*: not root, and no sudo to install them; as root, run: apt-get install $*"
      return $SETUP_NO_PERMISSION
    fi
    say "not root: installing through sudo (it may ask for your password)"
    if ! sudo true; then
      setup_error "missing $*: sudo refused; as root, run: apt-get install $*"
      return $SETUP_NO_PERMISSION
    fi
    as_root=(sudo env) via=" with sudo"
  fi
  say "installing $* via apt-get$via"
  # Offline, apt-get update warns and succeeds; the lists already here may still name the packages.
  err=$("${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get update -qq 2>&1 > /dev/null) || true
  [ -z "$err" ] || say "apt-get update: $(setup_apt_message "$err"); trying the package lists already here"
  if ! err=$("${as_root[@]}" DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" 2>&1 > /dev/null); then
    setup_error "apt-get could not install $* ($(setup_apt_message "$err")); without network access, \
stage them under .deps/ (README.md, Prerequisites)"
    return $SETUP_NO_PACKAGE
  fi
}
# The line of apt-get's OUTPUT that says the most: its first error (E:), else its first warning (W:),
# else its last line.
setup_apt_message() { # OUTPUT
  local line error="" warning="" last=""
  while IFS= read -r line; do
    [[ -z $error && $line == E:* ]] && error=$line
    [[ -z $warning && $line == W:* ]] && warning=$line
    [ -z "$line" ] || last=$line
  done <<< "$1"
  echo "${error:-${warning:-$last}}"
}

# What every build needs, and for the ci preset its lint tools (Debian 12's releases, which the lint
# tests check for); installs what is missing or stops.
setup_build_requirements() {
  setup_need_command cmake cmake
  setup_need_command ninja ninja-build
  setup_need_command g++ g++
  setup_need_command python3 python3
  setup_need_cmake_package Catch2 catch2
  setup_need_cmake_package CLI11 libcli11-dev
  setup_need_cmake_package nlohmann_json nlohmann-json3-dev
  if [ "$setup_preset" = ci ]; then
    setup_need_command shellcheck shellcheck
    setup_need_command clang-format clang-format
    setup_need_command clang-tidy clang-tidy
  fi
  [ ${#setup_found[@]} -eq 0 ] || say "found ${setup_found[*]}"
  [ ${#setup_missing[@]} -eq 0 ] || setup_apt_install "${setup_missing[@]}" || exit
  local cmake_version
  cmake_version=$(cmake --version | sed -n '1s/.* //p')
  printf '3.25\n%s\n' "$cmake_version" | sort -V -C || setup_fail $SETUP_NO_PACKAGE "cmake $cmake_version is older \
than 3.25, which the presets need: install a newer one (e.g. python3 -m pip install --user 'cmake>=3.25')"
  cmake --list-presets 2> /dev/null | grep -q "\"$setup_preset\"" ||
    setup_fail $SETUP_BAD_USAGE "no preset '$setup_preset' in CMakePresets.json (cmake --list-presets)"
}

# matplotlib, for bench's plot, into the python3 on the PATH (the one bench runs). Debian's own python3
# (prefix /usr, "externally managed" under PEP 668) gets Debian's python3-matplotlib; another python3 (a
# venv, pyenv, conda) gets PyPI's, installed into it by its pip. Without matplotlib bench draws no plot.
setup_matplotlib() {
  local prefix
  if python3 -c 'import matplotlib' 2> /dev/null; then
    say "found matplotlib"
    return
  fi
  prefix=$(python3 -c 'import sys; print(sys.prefix)')
  if [ "$prefix" = /usr ]; then
    setup_apt_install python3-matplotlib && return
  else
    say "installing matplotlib from PyPI into $prefix (python3 -m pip)"
    python3 -m pip install --quiet matplotlib && return
  fi
  say "going on without matplotlib: cudamatch bench draws no plot"
}

# Hyperscan, for bench's hyperscan peer, when apt-get can install it (libhyperscan-dev); without it bench runs
# the other peers and says so. Found by its header, as CMake finds it (tools/cudamatch/CMakeLists.txt).
setup_hyperscan() {
  if setup_under_a_prefix include/hs/hs.h; then
    say "found Hyperscan"
    return
  fi
  setup_apt_install libhyperscan-dev && return
  say "going on without Hyperscan: cudamatch bench has no hyperscan peer"
}

# The corpora in $CUDAMATCH_DATA (or datasets/cache), verified, else fetched there: copied from a mirror
# ($CUDAMATCH_CORPUS_MIRROR, else ../shared/datasets beside the checkout when there is one, as on CI), else
# downloaded. Without them the tests and bench use synthetic stand-ins.
setup_corpora() {
  local mirror=${CUDAMATCH_CORPUS_MIRROR:-} from=() cache err
  [ -z "${CUDAMATCH_DATA:-}" ] || CUDAMATCH_DATA=$(setup_abspath "$CUDAMATCH_DATA")
  if cache=$(python3 datasets/fetch.py --check 2> /dev/null); then
    say "corpora: $cache verified"
    return
  fi
  [ -n "$mirror" ] || [ ! -d ../shared/datasets ] || mirror=${setup_root%/*}/shared/datasets
  if [ -n "$mirror" ]; then
    mirror=$(setup_abspath "$mirror")
    from=(--from "$mirror")
    say "corpora: copying them from the mirror $mirror"
  else
    say "corpora: downloading them (CUDAMATCH_CORPUS_MIRROR=DIR or --corpus-mirror DIR copies them from a mirror)"
  fi
  if cache=$(python3 datasets/fetch.py "${from[@]}" 2> "$setup_root/build/fetch.log"); then
    say "corpora: $cache verified"
  else
    err=$(tail -n 1 "$setup_root/build/fetch.log")
    say "corpora: not fetched (${err#fetch.py: error: }): the tests and bench use synthetic stand-ins"
  fi
}

# Everything before the build, in order: stop early, before installing anything, when nvcc is missing.
setup_prepare() { # PRESET_WITHOUT_GPU WITHOUT_GPU
  setup_find_cuda_toolkit
  setup_choose_preset "$1" "$2"
  setup_staged_deps
  setup_build_requirements
  setup_matplotlib
  setup_hyperscan
  mkdir -p build
  setup_corpora
}

# cmake --preset, then cmake --build --preset --target TARGET with every core.
setup_configure_and_build() { # TARGET
  export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}
  say "configuring build/$setup_preset (cmake --preset $setup_preset)"
  cmake --preset "$setup_preset" || setup_fail $SETUP_BUILD_FAILED "cmake could not configure preset $setup_preset (above)"
  say "building $1 with $CMAKE_BUILD_PARALLEL_LEVEL jobs (cmake --build --preset $setup_preset --target $1)"
  cmake --build --preset "$setup_preset" --target "$1" ||
    setup_fail $SETUP_BUILD_FAILED "the build of preset $setup_preset failed (above)"
}
