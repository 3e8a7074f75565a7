#!/usr/bin/env bash
# What building and running cudamatch-grade needs on a fresh Debian or Ubuntu machine (a Gradescope
# image, a GitHub Classroom runner): a C++ compiler, Ninja, CMake 3.25+, the header-only libraries, and
# the CUDA Toolkit (nvcc, and cuobjdump for the sass items). Installs only what is missing; uses sudo
# when not root. The CUDA version: CUDA_VERSION (default 12-6, NVIDIA's package suffix).
set -euo pipefail
sudo=""
[ "$(id -u)" -eq 0 ] || sudo=sudo
export DEBIAN_FRONTEND=noninteractive

packages=(g++ ninja-build python3 python3-pip catch2 libcli11-dev nlohmann-json3-dev wget ca-certificates)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2> /dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi

# CMake 3.25 or newer (the presets' version); Ubuntu 22.04 ships 3.22: take PyPI's cmake then.
if ! cmake -P /dev/stdin <<< 'if(CMAKE_VERSION VERSION_LESS 3.25)
  message(FATAL_ERROR "old")
endif()' 2> /dev/null; then
  $sudo python3 -m pip install --quiet "cmake>=3.25"
  hash -r
fi

# The CUDA Toolkit from NVIDIA's repository: the compiler, the runtime and CUB, cuBLAS (lesson 02's
# ceiling), cuobjdump. No driver: grading machines without an NVIDIA GPU build and run the host tests.
if ! command -v nvcc > /dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  cuda=${CUDA_VERSION:-12-6}
  # shellcheck disable=SC1091
  . /etc/os-release
  repo="https://developer.download.nvidia.com/compute/cuda/repos/${ID}${VERSION_ID//./}/x86_64"
  keyring=$(mktemp --suffix=.deb)
  wget -q -O "$keyring" "$repo/cuda-keyring_1.1-1_all.deb"
  $sudo dpkg -i "$keyring" > /dev/null
  rm -f "$keyring"
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "cuda-nvcc-$cuda" "cuda-cudart-dev-$cuda" "cuda-cccl-$cuda" \
    "libcublas-dev-$cuda" "cuda-cuobjdump-$cuda" > /dev/null
fi
echo "install_dependencies: $(cmake --version | head -1), $( (command -v nvcc || echo /usr/local/cuda/bin/nvcc) )"
