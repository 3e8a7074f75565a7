# Sourced by the ncu scripts (lessons/*/ncu.sh, tools/gpu/ncu_matcher.sh): the arguments a script adds
# to the driver's, unless the user passed them already (a driver refuses an option given twice).
#   append_unless_given ARRAY_NAME OPTION VALUE [OPTION VALUE...]
append_unless_given() {
  local -n list=$1
  shift
  while [ $# -ge 2 ]; do
    local given=0 arg
    for arg in "${list[@]}"; do [[ $arg == "$1" || $arg == "$1="* ]] && given=1; done
    [ $given -eq 1 ] || list+=("$1" "$2")
    shift 2
  done
}
