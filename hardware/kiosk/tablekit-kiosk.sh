#!/bin/sh
# Start the table for the kiosk units: go on with the unfinished game in the journal if there
# is one (after a crash or a power cut), else start a new game with the arguments listed one
# per line in new-game.args in the data folder. Installed as bin/tablekit-kiosk under the
# install prefix by install.sh, which fills in the three values below.
#
# Every decision is said on stderr, which the units send to the journal
# (journalctl -u tablekit-kiosk on Lite; journalctl _SYSTEMD_USER_UNIT=tablekit-kiosk.service
# on the desktop): why it resumes, why it starts a new game, why it waits.
set -eu

# Filled in by install.sh, each quoted as one sh word.
VENV=@VENV@
DATA=@DATA@
# Screen size for the table (empty: the app's default); install.sh --size, digits only.
SIZE=@SIZE@

NEW_GAME_ARGS="$DATA/new-game.args"
export TABLEKIT_JOURNAL="${TABLEKIT_JOURNAL:-$DATA/journal.sqlite}"
# One line about the last start: when (seconds since 1970), how many quick restarts in a row,
# how many of those resumed a game, and how many started the game new-game.args lists.
STARTS="$DATA/kiosk-starts"
QUICK=60        # a table that stops within this many seconds of starting has crashed
MAX_WAIT=60     # the longest wait before starting again
RESUME_TRIES=3  # quick restarts that resumed a game before a new game is started instead
NEW_GAME_TRIES=3  # quick restarts of new-game.args's game before the setup screen is shown instead

log() {
    printf 'tablekit-kiosk: %s\n' "$*" >&2
}

number() {  # number VALUE: VALUE if it is a plain non-negative number, else 0
    case "$1" in
        "" | *[!0-9]* | ??????????????*) echo 0 ;;
        *) echo "$1" ;;
    esac
}

# --- a table that keeps stopping: wait longer each time -----------------------------------------

now="$(date +%s)"
last="" streak="" resumes="" fresh=""
if [ -f "$STARTS" ]; then
    read -r last streak resumes fresh <"$STARTS" 2>/dev/null || true
fi
last="$(number "$last")" streak="$(number "$streak")" resumes="$(number "$resumes")"
fresh="$(number "$fresh")"
if [ "$last" -le "$now" ] && [ $((now - last)) -lt "$QUICK" ]; then
    streak=$((streak + 1))
else
    streak=0 resumes=0 fresh=0
fi
if [ "$streak" -gt 0 ]; then
    wait_s=5 i=1
    while [ "$i" -lt "$streak" ] && [ "$wait_s" -lt "$MAX_WAIT" ]; do
        wait_s=$((wait_s * 2)) i=$((i + 1))
    done
    if [ "$wait_s" -gt "$MAX_WAIT" ]; then wait_s=$MAX_WAIT; fi
    log "the table stopped within ${QUICK}s of starting, $streak times in a row: waiting ${wait_s}s before starting it again"
    sleep "$wait_s"
fi

remember() {  # remember RESUMES FRESH: write down this start, just before it happens
    if ! { printf '%s %s %s %s\n' "$(date +%s)" "$streak" "$1" "$2" >"$STARTS"; } 2>/dev/null; then
        log "cannot write $STARTS: quick restarts will not be slowed down"
    fi
}

set -- run --fullscreen
if [ -n "$SIZE" ]; then
    set -- "$@" --size "$SIZE"
fi

CR="$(printf '\r')"
# The table's settings (camera, calibration, club, voice...) come from new-game.args: a resumed
# game needs them as much as a new one (the game itself, --variant and --players, comes from
# the journal then, and the app leaves those aside).
listed() {  # listed: new-game.args's arguments, one a line
    while IFS= read -r arg || [ -n "$arg" ]; do
        arg="${arg%"$CR"}"  # a file written on Windows ends its lines with CR LF
        case "$arg" in "" | "#"*) continue ;; esac
        printf '%s\n' "$arg"
    done <"$NEW_GAME_ARGS"
}

# --- is there a game to resume? ---------------------------------------------------------------

# Exit status 0: a game to resume; 3: nothing to resume; anything else: the journal could not
# be checked. One line on stdout says which game, or why not.
RESUME_CHECK='
import sys
try:
    from tablekit.journal import Journal, default_path
    path = default_path()
    if not path.exists():
        print("no journal yet")
        sys.exit(3)
    with Journal(path, read_only=True) as journal:  # the check writes nothing
        game = journal.resumable()
except Exception as exc:
    print(f"{type(exc).__name__}: {exc}")
    sys.exit(4)
if game is None:
    with Journal(path, read_only=True) as journal:
        stuck = journal.stuck()
    if stuck:
        print(f"game {stuck[-1][0]} is unfinished but cannot be resumed: {stuck[-1][1]}")
    else:
        print("every game in it is finished")
    sys.exit(3)
print(f"game {game}")
'

if [ "$resumes" -ge "$RESUME_TRIES" ]; then
    log "the unfinished game stopped straight after resuming, $resumes times in a row: starting a new game instead (the journal keeps the old one)"
else
    status=0
    said="$("$VENV/bin/python" -c "$RESUME_CHECK" 2>&1)" || status=$?
    said="$(printf '%s' "$said" | tr '\n' ' ')"
    case "$status" in
        0)
            log "resuming the unfinished game in $TABLEKIT_JOURNAL ($said)"
            remember $((resumes + 1)) 0
            if [ -f "$NEW_GAME_ARGS" ]; then
                while IFS= read -r arg; do [ -z "$arg" ] || set -- "$@" "$arg"; done <<LISTED
$(listed)
LISTED
            fi
            exec "$VENV/bin/tablekit" "$@" --resume
            ;;
        3)
            log "no unfinished game in $TABLEKIT_JOURNAL ($said): starting a new game"
            ;;
        *)
            log "could not check the journal $TABLEKIT_JOURNAL for an unfinished game (exit $status: ${said:-no reason given}): starting a new game"
            ;;
    esac
fi

# --- a new game -------------------------------------------------------------------------------

if [ -f "$NEW_GAME_ARGS" ] && [ "$fresh" -ge "$NEW_GAME_TRIES" ]; then
    log "the game $NEW_GAME_ARGS lists stopped straight after starting, $fresh times in a row: showing the setup screen instead (check that file: one argument a line)"
    remember "$resumes" "$fresh"
elif [ -f "$NEW_GAME_ARGS" ]; then
    while IFS= read -r arg; do [ -z "$arg" ] || set -- "$@" "$arg"; done <<LISTED
$(listed)
LISTED
    remember "$resumes" $((fresh + 1))
else
    log "no $NEW_GAME_ARGS: the app's own choice of game"
    remember "$resumes" "$fresh"
fi
exec "$VENV/bin/tablekit" "$@"
