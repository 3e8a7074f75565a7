#!/usr/bin/env bash
# Stages Debian's Hyperscan (libhyperscan5 and libhyperscan-dev) under .deps/root, beside the header-only
# packages that ../shared/gpu/prepare.sh stages, for a GPU machine without a package manager: there
# CMake finds it through CMAKE_PREFIX_PATH=.deps/root/usr (run-tests and run-bench set it), and
# `cudamatch bench` and `bench --multi` get their hyperscan rows. Run it here, on a Debian machine with
# apt-get, before handing .deps to the GPU machine. The static archives are left out: the shared library
# is all the build links, and the carried folder stays small. Debian 12's packages need glibc 2.36 and
# libstdc++ from GCC 12 or newer on the GPU machine (its Ubuntu 24.04 has glibc 2.39, and its
# GCC 13 builds this project there, so its libstdc++ is at least that new). The build
# finds the library through its build-tree RPATH; an installed cudamatch needs it on the loader's path.
#
#   tools/gpu/stage_hyperscan.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
mkdir -p .deps/root .deps/debs
for package in libhyperscan5 libhyperscan-dev; do
  if ! ls .deps/debs/"${package}"_*.deb > /dev/null 2>&1; then
    (cd .deps/debs && { apt-get download "$package" > /dev/null 2>&1 ||
      { apt-get update -qq > /dev/null && apt-get download "$package" > /dev/null; }; })
  fi
  # The newest download when there are several.
  # shellcheck disable=SC2012
  dpkg -x "$(ls -t .deps/debs/"${package}"_*.deb | head -1)" .deps/root
done
find .deps/root -name 'libhs*.a' -delete
find .deps/root -name 'libhs_runtime*' -delete
echo "staged Hyperscan under .deps/root/usr: $(find .deps/root -name 'libhs.so.*' -type f | head -1); .deps is $(du -sh .deps | cut -f1)"
