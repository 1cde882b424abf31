#!/usr/bin/env bash
# Install the kit into a virtual environment, the same way for `make` and for the kiosk.
#
#   hardware/install-kit.sh VENV [--editable] [--extras dev,train] [--quiet] [SOURCE]
#
# SOURCE is the kit's folder (default: this checkout). On a Raspberry Pi the venv is made with
# --system-site-packages and pip leaves to Pi OS what Pi OS provides: picamera2 (from apt)
# only works with the numpy and OpenCV it was built against, so a numpy or OpenCV that
# imports from the system is never installed again by pip (it would shadow them). Elsewhere
# pip installs every dependency into the venv as usual.
#
# TABLEKIT_MODEL_FILE (default /proc/device-tree/model) is where the board names itself;
# TABLEKIT_PI=1 or 0 overrides the check (tests and dry runs). PYTHON picks the interpreter.

set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
VENV=""
SOURCE="$(cd "$HERE/.." && pwd)"
EDITABLE=0
EXTRAS=""
QUIET=()
PYTHON="${PYTHON:-python3}"

die() {
    echo "install-kit.sh: $*" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
        --editable) EDITABLE=1; shift ;;
        --extras) EXTRAS="${2:?--extras needs a value}"; shift 2 ;;
        --quiet) QUIET=(--quiet); shift ;;
        -h | --help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) die "unknown option: $1" ;;
        *)
            if [ -z "$VENV" ]; then VENV="$1"; else SOURCE="$1"; fi
            shift ;;
    esac
done
[ -n "$VENV" ] || die "usage: install-kit.sh VENV [--editable] [--extras LIST] [--quiet] [SOURCE]"
[ -f "$SOURCE/pyproject.toml" ] || die "no pyproject.toml in $SOURCE"
case "$EXTRAS" in *[!a-z0-9,_-]*) die "--extras must be a comma-separated list of names" ;; esac

on_pi() {
    case "${TABLEKIT_PI:-}" in
        1) return 0 ;;
        0) return 1 ;;
    esac
    grep -qi "raspberry pi" "${TABLEKIT_MODEL_FILE:-/proc/device-tree/model}" 2>/dev/null
}

target="$SOURCE"
if [ -n "$EXTRAS" ]; then target="${SOURCE}[${EXTRAS}]"; fi
install_args=("$target")
if [ "$EDITABLE" = 1 ]; then install_args=(--editable "$target"); fi

if on_pi; then
    echo "==> Raspberry Pi: $VENV sees Pi OS's packages (picamera2, numpy, OpenCV from apt)"
    [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv --system-site-packages "$VENV"
    "$VENV/bin/python" -m pip install "${QUIET[@]}" --upgrade pip
    # The kit without its dependencies, then each dependency the system does not already import.
    "$VENV/bin/python" -m pip install "${QUIET[@]}" --no-deps "${install_args[@]}"
    local_reqs="$("$VENV/bin/python" "$HERE/pi_requirements.py" "$SOURCE/pyproject.toml" "$EXTRAS")"
    mapfile -t needed <<<"$local_reqs"
    if [ -n "$local_reqs" ]; then
        "$VENV/bin/python" -m pip install "${QUIET[@]}" "${needed[@]}"
    fi
else
    [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"
    "$VENV/bin/python" -m pip install "${QUIET[@]}" --upgrade pip
    "$VENV/bin/python" -m pip install "${QUIET[@]}" "${install_args[@]}"
fi
echo "==> installed: $("$VENV/bin/python" -c 'import importlib.metadata as m; print("tablekit", m.version("tablekit"))')"
