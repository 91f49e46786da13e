# shellcheck shell=bash
# Sourced: the one way the scripts make a Python virtual environment.
#
#   ekl_venv [--fresh] [--python PY] DIR [PIP-ARG...]
#
# Makes DIR a venv of PY (default: ${PYTHON:-python3}) holding PIP-ARG... (pinned requirements,
# `-r FILE`, pip options), installed with `pip install -q --disable-pip-version-check`. What was
# installed is recorded in DIR/.pins (the arguments, and the sha256 of each `-r` file), written
# only once the install succeeded: DIR is reused as it is when its record equals the wanted one,
# and re-created otherwise (other pins, or an install that was interrupted or failed).
#   --fresh   re-create DIR whatever it holds: a throwaway venv that must be new (an install from
#             a wheel or an sdist checked in a clean environment).
ekl_venv() {
  local fresh=0 py=${PYTHON:-python3}
  while [ $# -gt 0 ]; do
    case $1 in
      --fresh) fresh=1; shift ;;
      --python) py=$2; shift 2 ;;
      *) break ;;
    esac
  done
  local dir=$1
  shift
  local want="$*" prev="" arg
  for arg in "$@"; do
    if [ "$prev" = -r ] || [ "$prev" = --requirement ]; then
      want+=$'\n'"$(sha256sum "$arg")" || return 1
    fi
    prev=$arg
  done
  if [ "$fresh" = 0 ] && [ -x "$dir/bin/python" ] && [ -f "$dir/.pins" ] \
    && [ "$(cat "$dir/.pins")" = "$want" ]; then
    return 0
  fi
  rm -rf "$dir"
  "$py" -m venv "$dir" || return 1
  if [ $# -gt 0 ]; then
    "$dir/bin/python" -m pip install -q --disable-pip-version-check "$@" || return 1
  fi
  printf '%s\n' "$want" > "$dir/.pins"
}
