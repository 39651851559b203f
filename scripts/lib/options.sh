# shellcheck shell=bash
# The option loop the mutation scripts share (scripts/mutants.sh, scripts/mutants-js.sh), sourced
# by them: each names the options that take a value, and keeps what it does with them.
#
#   parse_options NAME... -- "$@"
#
# `--NAME VALUE` and `--NAME=VALUE` set the shell variable NAME (the last one given wins);
# `-h`/`--help`, or a `--NAME` with nothing after it, calls the script's `usage`; every other
# argument is appended, in order, to the array `rest` (to pass through to the tool the script runs).
parse_options() {
  local _names=() _name _matched
  while [ "$1" != "--" ]; do
    _names+=("$1")
    shift
  done
  shift
  rest=()
  while [ $# -gt 0 ]; do
    _matched=0
    for _name in "${_names[@]}"; do
      case "$1" in
        "--$_name") [ $# -ge 2 ] || usage; printf -v "$_name" '%s' "$2"; shift 2; _matched=1; break ;;
        "--$_name="*) printf -v "$_name" '%s' "${1#"--$_name="}"; shift; _matched=1; break ;;
      esac
    done
    if [ "$_matched" = 0 ]; then
      case "$1" in
        -h|--help) usage ;;
        *) rest+=("$1"); shift ;;
      esac
    fi
  done
}
