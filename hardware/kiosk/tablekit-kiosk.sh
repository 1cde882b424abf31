#!/bin/sh
# Start the table for the kiosk units: go on with the unfinished game in the journal if there
# is one (after a crash or a power cut), else start a new game with the arguments listed one
# per line in @DATA@/new-game.args. Installed as @PREFIX@/bin/tablekit-kiosk by install.sh.
set -eu

VENV="@VENV@"
NEW_GAME_ARGS="@DATA@/new-game.args"
export TABLEKIT_JOURNAL="${TABLEKIT_JOURNAL:-@DATA@/journal.sqlite}"

# Screen size for the table (empty: the app's default); set by install.sh --size.
SIZE="@SIZE@"
set -- run --fullscreen
if [ -n "$SIZE" ]; then
    set -- "$@" --size "$SIZE"
fi

if "$VENV/bin/python" -c 'import sys
from tablekit.journal import Journal, default_path
sys.exit(0 if Journal(default_path()).resumable() is not None else 1)' 2>/dev/null; then
    exec "$VENV/bin/tablekit" "$@" --resume
fi

if [ -f "$NEW_GAME_ARGS" ]; then
    while IFS= read -r arg || [ -n "$arg" ]; do
        case "$arg" in "" | "#"*) continue ;; esac
        set -- "$@" "$arg"
    done <"$NEW_GAME_ARGS"
fi
exec "$VENV/bin/tablekit" "$@"
