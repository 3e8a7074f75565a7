# shellcheck shell=bash
# Sourced by the lint scripts, whose checks hold for one release of an LLVM tool (Debian 12's, 14):
#   require_llvm_release SCRIPT TOOL MAJOR PACKAGE
# exits 77 (CTest: skipped) with a line saying why when TOOL is not installed or is another release,
# or when the tree is not a git checkout.
require_llvm_release() {
  local script=$1 tool=$2 wanted=$3 package=$4 major
  if ! command -v "$tool" > /dev/null; then
    echo "$script: $tool is not installed (Debian: apt-get install $package): not checked"
    exit 77
  fi
  major=$("$tool" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
  if [ "$major" != "$wanted" ]; then
    echo "$script: $tool is release $major; the checks hold for release $wanted: not checked"
    exit 77
  fi
  # The files checked are the ones git tracks: an exported copy (a tarball, a grading copy) has none.
  if ! git rev-parse --is-inside-work-tree > /dev/null 2>&1; then
    echo "$script: not a git checkout: no tracked files to check"
    exit 77
  fi
}
