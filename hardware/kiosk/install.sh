#!/usr/bin/env bash
# Install Rummy Table Kit as an unattended kiosk on a Raspberry Pi (Pi OS Bookworm).
#
#   sudo hardware/kiosk/install.sh [--mode auto|desktop|lite] [--dry-run] ...
#
# desktop: Pi OS with the desktop (Wayland, labwc). The kiosk user logs in automatically,
#          its own labwc config has no key or mouse bindings and no panel, and a systemd
#          user unit runs the table and restarts it whenever it stops.
# lite:    Pi OS Lite. A system unit runs the table on the first console through KMSDRM,
#          in place of the login prompt, and restarts it whenever it stops.
# Both:    a dedicated user with no login shell and a locked password; no login prompts on
#          the other consoles; the kit installed by hardware/install-kit.sh (on a Pi its venv
#          sees picamera2, numpy and OpenCV from apt).
# --dry-run prints every step and changes nothing. See hardware/kiosk/README.md.

set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
MODE="auto"
KIOSK_USER="tablekit"
PREFIX="/opt/tablekit"
DATA="/var/lib/tablekit"
SOURCE="$(cd "$HERE/../.." && pwd)"
SIZE=""
DRY_RUN=0
APT=1
UNINSTALL=0
FORCE=0
# Where the board names itself (the tests point this at a file of their own).
MODEL_FILE="${TABLEKIT_MODEL_FILE:-/proc/device-tree/model}"

usage() {
    cat <<EOF
usage: $(basename "$0") [options]
  --mode MODE      auto (default), desktop (Wayland/labwc) or lite (KMSDRM, no desktop)
  --user NAME      kiosk user to create (default: $KIOSK_USER)
  --prefix DIR     where the venv goes (default: $PREFIX)
  --data DIR       the table's journal and settings (default: $DATA)
  --source DIR     the kit to install (default: this checkout)
  --size WxH       the table's screen size, e.g. 800x480 for the Pi touchscreen
                   (default: the app's own)
  --no-apt         do not install Debian packages
  --uninstall      remove the units and configuration (keeps the user and data)
  --dry-run        print what would be done; change nothing
  --force          install on a machine that is not a Raspberry Pi
  -h, --help       this text
EOF
}

die() {
    echo "install.sh: $*" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case "$1" in
        --mode) MODE="${2:?--mode needs a value}"; shift 2 ;;
        --user) KIOSK_USER="${2:?--user needs a value}"; shift 2 ;;
        --prefix) PREFIX="${2:?--prefix needs a value}"; shift 2 ;;
        --data) DATA="${2:?--data needs a value}"; shift 2 ;;
        --source) SOURCE="${2:?--source needs a value}"; shift 2 ;;
        --size) SIZE="${2:?--size needs a value}"; shift 2 ;;
        --no-apt) APT=0; shift ;;
        --uninstall) UNINSTALL=1; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        --force) FORCE=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done

case "$MODE" in auto | desktop | lite) ;; *) die "--mode must be auto, desktop or lite" ;; esac
case "$KIOSK_USER" in *[!a-z0-9_-]* | "" | -*) die "--user must be a plain lower-case name" ;; esac
case "$SIZE" in "" | [1-9]*x[1-9]*) ;; *) die "--size must look like 1920x1080" ;; esac
for dir in "$PREFIX" "$DATA"; do
    case "$dir" in /*) ;; *) die "paths must be absolute: $dir" ;; esac
done

VENV="$PREFIX/venv"
LAUNCHER="$PREFIX/bin/tablekit-kiosk"
SYSTEM_UNIT="/etc/systemd/system/tablekit-kiosk.service"
LOGIND_DROPIN="/etc/systemd/logind.conf.d/50-tablekit-kiosk.conf"
SYSCTL_DROPIN="/etc/sysctl.d/50-tablekit-kiosk.conf"
LIGHTDM_DROPIN="/etc/lightdm/lightdm.conf.d/50-tablekit-kiosk.conf"
LIGHTDM_CONF="/etc/lightdm/lightdm.conf"
LIGHTDM_BACKUP="/etc/lightdm/lightdm.conf.before-tablekit"
KIOSK_GROUPS="video,render,input,dialout,plugdev"

# --- doing, or saying what would be done ------------------------------------------------------

say() { echo "==> $*"; }

run() {
    if [ "$DRY_RUN" = 1 ]; then
        echo "would run: $*"
    else
        "$@"
    fi
}

# put_file MODE OWNER DEST: write stdin to DEST, filling in @USER@, @DATA@, @VENV@, @PREFIX@,
# @LAUNCHER@ and @SIZE@.
put_file() {
    local mode="$1" owner="$2" dest="$3" text
    text="$(sed -e "s|@USER@|$KIOSK_USER|g" -e "s|@DATA@|$DATA|g" -e "s|@VENV@|$VENV|g" \
        -e "s|@PREFIX@|$PREFIX|g" -e "s|@LAUNCHER@|$LAUNCHER|g" -e "s|@SIZE@|$SIZE|g")"
    if [ "$DRY_RUN" = 1 ]; then
        echo "would write: $dest (mode $mode, owner $owner)"
        printf '%s\n' "$text" | sed -e 's/^/    | /'
        return
    fi
    install -d "$(dirname "$dest")"
    printf '%s\n' "$text" >"$dest"
    chmod "$mode" "$dest"
    chown "$owner" "$dest"
}

remove() {
    for path in "$@"; do
        if [ -e "$path" ]; then run rm -rf -- "$path"; fi
    done
}

# --- what kind of Pi OS -------------------------------------------------------------------------

labwc_session() {
    # The session name differs between Pi OS releases; take the first that exists.
    local name
    for name in rpd-labwc LXDE-pi-labwc labwc; do
        if [ -f "/usr/share/wayland-sessions/$name.desktop" ]; then
            echo "$name"
            return
        fi
    done
    echo "labwc"
}

detect_mode() {
    if command -v labwc >/dev/null 2>&1 && [ -d /etc/lightdm ] &&
        [ "$(systemctl get-default 2>/dev/null || true)" = "graphical.target" ]; then
        echo desktop
    else
        echo lite
    fi
}

# --- steps ------------------------------------------------------------------------------------

install_packages() {
    [ "$APT" = 1 ] || return 0
    say "Debian packages (picamera2 comes from Pi OS's apt, not pip)"
    local packages=(python3-venv python3-pip fonts-dejavu-core)
    if apt-cache show python3-picamera2 >/dev/null 2>&1; then
        # picamera2 and the numpy and OpenCV it was built against, all from apt
        packages+=(python3-picamera2 python3-numpy python3-opencv)
    else
        echo "note: python3-picamera2 is not in apt here; the camera falls back to USB or photos"
    fi
    run apt-get update -qq
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}"
}

create_user() {
    say "kiosk user '$KIOSK_USER': no login shell, locked password, groups $KIOSK_GROUPS"
    if id "$KIOSK_USER" >/dev/null 2>&1; then
        run usermod --shell /usr/sbin/nologin "$KIOSK_USER"
    else
        run useradd --system --create-home --home-dir "/home/$KIOSK_USER" --shell /usr/sbin/nologin "$KIOSK_USER"
    fi
    local group
    for group in ${KIOSK_GROUPS//,/ }; do
        if getent group "$group" >/dev/null 2>&1; then run usermod -a -G "$group" "$KIOSK_USER"; fi
    done
    run passwd -l "$KIOSK_USER"
    run install -d -o "$KIOSK_USER" -g "$KIOSK_USER" -m 0750 "$DATA"
}

install_kit() {
    say "venv at $VENV and the kit from $SOURCE, as hardware/install-kit.sh does it everywhere"
    say "(on a Pi the venv sees Pi OS's picamera2, numpy and OpenCV; pip adds only the rest)"
    [ -f "$SOURCE/pyproject.toml" ] || die "no pyproject.toml in $SOURCE (use --source)"
    run install -d "$PREFIX"
    # Build from a clean copy (the committed tree of a git checkout), so that the build
    # leaves nothing root-owned behind in the checkout.
    if [ "$DRY_RUN" = 1 ]; then
        echo "would run: copy $SOURCE (git HEAD if a checkout) to a temporary folder"
        echo "would run: $HERE/../install-kit.sh $VENV --quiet <that folder>"
    else
        local stage
        stage="$(mktemp -d)"
        if git -C "$SOURCE" rev-parse --git-dir >/dev/null 2>&1; then
            git -C "$SOURCE" archive --format=tar HEAD | tar -x -C "$stage"
        else
            tar -C "$SOURCE" --exclude=./.venv --exclude=./.git --exclude=./build -cf - . | tar -x -C "$stage"
        fi
        "$stage/hardware/install-kit.sh" "$VENV" --quiet "$stage"
        rm -rf -- "$stage"
    fi
    put_file 0755 root:root "$LAUNCHER" <"$HERE/tablekit-kiosk.sh"
    if [ -e "$DATA/new-game.args" ]; then
        say "keeping the game list in $DATA/new-game.args"
    else
        put_file 0644 "$KIOSK_USER:$KIOSK_USER" "$DATA/new-game.args" <"$HERE/new-game.args"
    fi
}

lock_consoles() {
    say "no login prompts on any console, no SysRq, no Ctrl+Alt+Del reboot"
    put_file 0644 root:root "$LOGIND_DROPIN" <"$HERE/logind-kiosk.conf"
    put_file 0644 root:root "$SYSCTL_DROPIN" <"$HERE/sysctl-kiosk.conf"
    run systemctl mask ctrl-alt-del.target
    # No login prompt on the first console either (Ctrl+Alt+F1 on the desktop shows nothing).
    run systemctl disable getty@tty1.service
}

setup_lite() {
    say "Pi OS Lite: system unit on tty1 with KMSDRM, started at boot, restarted when it stops"
    put_file 0644 root:root "$SYSTEM_UNIT" <"$HERE/tablekit-kiosk.service"
    run systemctl set-default multi-user.target
    run systemctl daemon-reload
    run systemctl enable tablekit-kiosk.service
}

setup_desktop() {
    local home="/home/$KIOSK_USER" session
    session="$(labwc_session)"
    say "Pi OS desktop: autologin to labwc ($session) as $KIOSK_USER, a user unit started by autostart"
    # lightdm.conf is read after the drop-ins: its own autologin lines would win, so they are
    # turned into comments (the file is kept as it was in $LIGHTDM_BACKUP).
    if [ -f "$LIGHTDM_CONF" ]; then
        if [ ! -e "$LIGHTDM_BACKUP" ]; then run cp -p "$LIGHTDM_CONF" "$LIGHTDM_BACKUP"; fi
        run sed -i -E 's/^(autologin-user|autologin-session|user-session)=/#tablekit# &/' "$LIGHTDM_CONF"
    fi
    put_file 0644 root:root "$LIGHTDM_DROPIN" <<EOF
# Log the kiosk user straight into labwc at boot.
[Seat:*]
autologin-user=$KIOSK_USER
autologin-session=$session
user-session=$session
EOF
    local conf="$home/.config" owner="$KIOSK_USER:$KIOSK_USER"
    run install -d -o "$KIOSK_USER" -g "$KIOSK_USER" "$conf" "$conf/labwc" "$conf/systemd" "$conf/systemd/user"
    put_file 0755 "$owner" "$conf/labwc/autostart" <"$HERE/labwc/autostart"
    put_file 0644 "$owner" "$conf/labwc/rc.xml" <"$HERE/labwc/rc.xml"
    put_file 0644 "$owner" "$conf/labwc/menu.xml" <"$HERE/labwc/menu.xml"
    put_file 0644 "$owner" "$conf/systemd/user/tablekit-kiosk.service" <"$HERE/tablekit-kiosk-user.service"
    run systemctl set-default graphical.target
}

uninstall() {
    say "removing the kiosk units and configuration (user $KIOSK_USER and $DATA stay)"
    if [ -e "$SYSTEM_UNIT" ]; then
        run systemctl disable tablekit-kiosk.service
    fi
    remove "$SYSTEM_UNIT" "$LOGIND_DROPIN" "$SYSCTL_DROPIN" "$LIGHTDM_DROPIN"
    if [ -f "$LIGHTDM_BACKUP" ]; then run mv -f "$LIGHTDM_BACKUP" "$LIGHTDM_CONF"; fi
    remove "/home/$KIOSK_USER/.config/labwc" "/home/$KIOSK_USER/.config/systemd/user/tablekit-kiosk.service"
    run systemctl unmask ctrl-alt-del.target
    run systemctl enable getty@tty1.service
    run systemctl daemon-reload
}

main() {
    if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
        die "run as root (sudo), or with --dry-run to see the steps"
    fi
    # This takes over the machine's consoles and login: never by accident on a desktop or server.
    if [ "$DRY_RUN" = 0 ] && [ "$FORCE" = 0 ] && ! grep -qi "raspberry pi" "$MODEL_FILE" 2>/dev/null; then
        die "this is not a Raspberry Pi; use --dry-run to see the steps, or --force"
    fi
    [ "$DRY_RUN" = 1 ] && say "dry run: nothing will be changed"
    if [ "$UNINSTALL" = 1 ]; then
        uninstall
        return
    fi
    if [ "$MODE" = auto ]; then MODE="$(detect_mode)"; fi
    say "mode: $MODE; user: $KIOSK_USER; venv: $VENV; data: $DATA"
    say "the table runs: $LAUNCHER (resumes the unfinished game, else starts $DATA/new-game.args)"
    install_packages
    create_user
    install_kit
    lock_consoles
    if [ "$MODE" = lite ]; then setup_lite; else setup_desktop; fi
    say "done: reboot to start the table (players get the table screen and nothing else)"
}

main
