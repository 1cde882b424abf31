#!/usr/bin/env bash
# Install Rummy Table Kit as an unattended kiosk on a Raspberry Pi (Pi OS Bookworm).
#
#   sudo hardware/kiosk/install.sh [--mode auto|desktop|lite] [--dry-run] ...
#
# desktop: Pi OS with the desktop (Wayland, labwc). The kiosk user logs in automatically to
#          a session of its own, labwc -C with the kiosk's config folder only (no key or mouse
#          bindings, no panel, nothing of the desktop's merged in), and a systemd user unit
#          runs the table and restarts it whenever it stops.
# lite:    Pi OS Lite. A system unit runs the table on the first console through KMSDRM,
#          in place of the login prompt, and restarts it whenever it stops.
# Both:    a dedicated user with no login shell and a locked password; no login prompts on
#          the other consoles; the kit installed by hardware/install-kit.sh (on a Pi its venv
#          sees picamera2, numpy and OpenCV from apt).
# --dry-run prints every step and every file it would write, and changes nothing.
# Every value that ends up in a generated file is checked first and then quoted for that
# file's own syntax (sh for the launcher, systemd.syntax(7) for the units). See
# hardware/kiosk/README.md.

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
  --prefix DIR     where the venv goes (default: $PREFIX; letters, digits, . _ + - / only)
  --data DIR       the table's journal and settings (default: $DATA)
  --source DIR     the kit to install (default: this checkout)
  --size WxH       the table's screen size in pixels, digits only, e.g. 800x480 for the
                   Pi touchscreen (default: the app's own)
  --no-apt         do not install Debian packages
  --uninstall      remove the units, configuration and venv (keeps the user and data)
  --dry-run        print what would be done; change nothing
  --force          install on a machine that is not a Raspberry Pi
  -h, --help       this text
EOF
}

die() {
    echo "install.sh: $*" >&2
    exit 2
}

# need OPTION [VALUE]: refuse an option given without its value.
need() {
    if [ $# -lt 2 ] || [ -z "$2" ]; then die "$1 needs a value"; fi
}

while [ $# -gt 0 ]; do
    case "$1" in
        --mode) need "$@"; MODE="$2"; shift 2 ;;
        --user) need "$@"; KIOSK_USER="$2"; shift 2 ;;
        --prefix) need "$@"; PREFIX="$2"; shift 2 ;;
        --data) need "$@"; DATA="$2"; shift 2 ;;
        --source) need "$@"; SOURCE="$2"; shift 2 ;;
        --size) need "$@"; SIZE="$2"; shift 2 ;;
        --no-apt) APT=0; shift ;;
        --uninstall) UNINSTALL=1; shift ;;
        --dry-run) DRY_RUN=1; shift ;;
        --force) FORCE=1; shift ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown option: $1" ;;
    esac
done

# --- checking every value that goes into a generated file ---------------------------------------

# check_path OPTION PATH: a path the units, the launcher and the session can all carry: absolute,
# one line without control characters, no "." or ".." parts (systemd refuses them), and no white
# space at the end (systemd strips it from a setting). Anything else (spaces, quotes, %, $) is
# fine: it is quoted where it is written.
check_path() {
    local option="$1" path="$2"
    case "$path" in /*) ;; *) die "$option must be an absolute path: '$path'" ;; esac
    if [[ "$path" == *[[:cntrl:]]* ]]; then die "$option must be one line without control characters"; fi
    case "$path/" in */./* | */../*) die "$option must not have . or .. in it: '$path'" ;; esac
    case "$path" in *[[:space:]]) die "$option must not end in white space: '$path'" ;; esac
}

case "$MODE" in auto | desktop | lite) ;; *) die "--mode must be auto, desktop or lite" ;; esac
if ! [[ "$KIOSK_USER" =~ ^[a-z_][a-z0-9_-]{0,31}$ ]]; then
    die "--user must be a plain lower-case name (letters, digits, _ and -; at most 32)"
fi
if [ -n "$SIZE" ] && ! [[ "$SIZE" =~ ^[1-9][0-9]{0,4}x[1-9][0-9]{0,4}$ ]]; then
    die "--size must be WIDTHxHEIGHT in digits, like 800x480 or 1920x1080 (got '$SIZE')"
fi
check_path --prefix "$PREFIX"
# The launcher under the prefix is what the units execute, and systemd refuses an executable
# whose path holds quotes or backslashes: the prefix is kept to plain characters.
if ! [[ "$PREFIX" =~ ^/[A-Za-z0-9._+/-]*$ ]]; then
    die "--prefix must be a plain path (letters, digits and . _ + - /): '$PREFIX'"
fi
check_path --data "$DATA"
# The kiosk user loses its login shell and password: never a person's own account.
if [ "$UNINSTALL" != 1 ] && id "$KIOSK_USER" >/dev/null 2>&1; then
    uid="$(id -u "$KIOSK_USER")"
    if [ "$uid" -eq 0 ] || [ "$uid" -ge 1000 ] || id -nG "$KIOSK_USER" | tr ' ' '\n' | grep -qx sudo; then
        die "user '$KIOSK_USER' is someone's login (uid $uid, or in sudo): the kiosk would lock it; choose another --user (the default is tablekit)"
    fi
fi

VENV="$PREFIX/venv"
LAUNCHER="$PREFIX/bin/tablekit-kiosk"
SYSTEM_UNIT="/etc/systemd/system/tablekit-kiosk.service"
LOGIND_DROPIN="/etc/systemd/logind.conf.d/50-tablekit-kiosk.conf"
SYSCTL_DROPIN="/etc/sysctl.d/50-tablekit-kiosk.conf"
LIGHTDM_DROPIN="/etc/lightdm/lightdm.conf.d/50-tablekit-kiosk.conf"
LIGHTDM_CONF="/etc/lightdm/lightdm.conf"
LIGHTDM_BACKUP="/etc/lightdm/lightdm.conf.before-tablekit"
UDEV_RULE="/etc/udev/rules.d/99-tablekit-box.rules"
KIOSK_GROUPS="video,render,input,dialout,plugdev,audio"
# The desktop kiosk's own labwc session and config folder (fixed paths: nothing to quote).
KIOSK_SESSION="/usr/share/wayland-sessions/tablekit-kiosk.desktop"
LABWC_DIR="/etc/tablekit/labwc"

# --- doing, or saying what would be done ------------------------------------------------------

say() { echo "==> $*"; }

run() {
    if [ "$DRY_RUN" = 1 ]; then
        echo "would run: $*"
    else
        "$@"
    fi
}

# --- quoting ---------------------------------------------------------------------------------

# sh_word VALUE: VALUE as one sh word, in single quotes ('\'' for each quote inside).
sh_word() {
    printf "'%s'" "${1//\'/\'\\\'\'}"
}

# unit_string VALUE: VALUE for the inside of a double-quoted systemd setting value
# (Environment="NAME=..."): backslash and double quote escaped, % written %% (a specifier).
unit_string() {
    local v="${1//\\/\\\\}"
    v="${v//\"/\\\"}"
    printf '%s' "${v//%/%%}"
}

# unit_path VALUE: VALUE for a path setting (WorkingDirectory=), which takes no quotes or
# escapes, only specifiers: % written %%.
unit_path() {
    printf '%s' "${1//%/%%}"
}

# placeholder KIND NAME: the value of @NAME@ in a file of KIND, quoted for that file:
#   sh     VENV, DATA, SIZE as single sh words (the launcher: VENV=@VENV@)
#   unit   USER (checked above: plain), DATA and LAUNCHER (plain too) for the inside of
#          "...", DATA_DIR for WorkingDirectory=
#   plain  none
placeholder() {
    case "$1:$2" in
        sh:VENV) sh_word "$VENV" ;;
        sh:DATA) sh_word "$DATA" ;;
        sh:SIZE) sh_word "$SIZE" ;;
        unit:USER) printf '%s' "$KIOSK_USER" ;;
        unit:DATA) unit_string "$DATA" ;;
        unit:DATA_DIR) unit_path "$DATA" ;;
        unit:LAUNCHER) unit_string "$LAUNCHER" ;;
        *) die "no @$2@ in a $1 file (a template out of step with install.sh)" ;;
    esac
}

# fill KIND: stdin with every @NAME@ replaced by its value for KIND, in one pass (a value that
# itself holds an @NAME@ is left as it is).
fill() {
    local text out="" match value
    text="$(cat)"
    while [[ "$text" =~ @([A-Z_]+)@ ]]; do
        match="${BASH_REMATCH[0]}"
        value="$(placeholder "$1" "${BASH_REMATCH[1]}")" || exit 2
        out+="${text%%"$match"*}$value"
        text="${text#*"$match"}"
    done
    printf '%s' "$out$text"
}

# put_file MODE OWNER DEST KIND: write stdin to DEST, its placeholders filled in for KIND.
put_file() {
    local mode="$1" owner="$2" dest="$3" kind="$4" text
    text="$(fill "$kind")" || exit 2
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
    # the GL and GBM libraries SDL's KMSDRM driver loads at run time (Lite may lack some)
    local packages=(python3-venv python3-pip fonts-dejavu-core fonts-noto-core fonts-noto-cjk espeak-ng
                    libgbm1 libegl1 libgles2 libgl1-mesa-dri)
    run apt-get update -qq  # first: an image with empty package lists knows no picamera2
    if apt-cache show python3-picamera2 >/dev/null 2>&1; then
        # picamera2 and the numpy and OpenCV it was built against, all from apt; matplotlib
        # (the printable score sheet) built against that numpy, rather than built by pip
        packages+=(python3-picamera2 python3-numpy python3-opencv python3-matplotlib)
    else
        echo "note: python3-picamera2 is not in apt here; the camera falls back to USB or photos"
    fi
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
        # a failed build must not leave a copy of the kit on the SD card's /tmp
        trap 'rm -rf -- "$stage"' EXIT
        if git -C "$SOURCE" rev-parse --git-dir >/dev/null 2>&1; then
            git -C "$SOURCE" archive --format=tar HEAD | tar -x -C "$stage"
        else
            tar -C "$SOURCE" --exclude=./.venv --exclude=./.git --exclude=./build -cf - . | tar -x -C "$stage"
        fi
        "$stage/hardware/install-kit.sh" "$VENV" --quiet "$stage"
        rm -rf -- "$stage"
        trap - EXIT
    fi
    put_file 0755 root:root "$LAUNCHER" sh <"$HERE/tablekit-kiosk.sh"
    # the box's stable name, /dev/tablekit-box, whatever ttyACM/ttyUSB it gets
    put_file 0644 root:root "$UDEV_RULE" plain <"$HERE/../udev/99-tablekit-box.rules"
    run udevadm control --reload
    run udevadm trigger --subsystem-match=tty
    if [ -e "$DATA/new-game.args" ]; then
        say "keeping the game list in $DATA/new-game.args"
    else
        put_file 0644 "$KIOSK_USER:$KIOSK_USER" "$DATA/new-game.args" plain <"$HERE/new-game.args"
    fi
}

lock_consoles() {
    say "no login prompts on any console, no SysRq, no Ctrl+Alt+Del reboot"
    put_file 0644 root:root "$LOGIND_DROPIN" plain <"$HERE/logind-kiosk.conf"
    put_file 0644 root:root "$SYSCTL_DROPIN" plain <"$HERE/sysctl-kiosk.conf"
    run systemctl mask ctrl-alt-del.target
    # No login prompt on the first console either (Ctrl+Alt+F1 on the desktop shows nothing).
    run systemctl disable getty@tty1.service
}

setup_lite() {
    say "Pi OS Lite: system unit on tty1 with KMSDRM, started at boot, restarted when it stops"
    # a desktop install before this one: its autologin session would start a second table
    remove "$LIGHTDM_DROPIN" "$KIOSK_SESSION" "$LABWC_DIR" \
        "/home/$KIOSK_USER/.config/systemd/user/tablekit-kiosk.service"
    if [ -f "$LIGHTDM_BACKUP" ]; then run mv -f "$LIGHTDM_BACKUP" "$LIGHTDM_CONF"; fi
    put_file 0644 root:root "$SYSTEM_UNIT" unit <"$HERE/tablekit-kiosk.service"
    run systemctl set-default multi-user.target
    run systemctl daemon-reload
    run systemctl enable tablekit-kiosk.service
}

setup_desktop() {
    local home="/home/$KIOSK_USER" owner="$KIOSK_USER:$KIOSK_USER"
    say "Pi OS desktop: autologin as $KIOSK_USER to labwc -C $LABWC_DIR (nothing of the desktop's), a user unit started by autostart"
    # a Lite install before this one: its system unit on tty1 would start a second table
    if [ -e "$SYSTEM_UNIT" ]; then run systemctl disable tablekit-kiosk.service; fi
    remove "$SYSTEM_UNIT"
    # lightdm.conf is read after the drop-ins: its own autologin lines would win, so they are
    # turned into comments (the file is kept as it was in $LIGHTDM_BACKUP).
    if [ -f "$LIGHTDM_CONF" ]; then
        if [ ! -e "$LIGHTDM_BACKUP" ]; then run cp -p "$LIGHTDM_CONF" "$LIGHTDM_BACKUP"; fi
        run sed -i -E 's/^(autologin-user|autologin-session|user-session)=/#tablekit# &/' "$LIGHTDM_CONF"
    fi
    # A session of the kiosk's own, not Pi OS's: that one may start labwc with --merge-config,
    # which reads every labwc folder (the desktop's autostart with its panel and file manager,
    # its key bindings) on top of the kiosk's. With -C labwc reads that one folder and no other.
    put_file 0644 root:root "$KIOSK_SESSION" plain <<EOF
[Desktop Entry]
Name=Rummy Table Kit kiosk
Comment=The table screen alone: labwc with the kiosk's own configuration, nothing of the desktop's
Exec=$LABWC_DIR/session
Type=Application
DesktopNames=labwc;wlroots
EOF
    put_file 0644 root:root "$LIGHTDM_DROPIN" plain <<EOF
# Log the kiosk user straight into its own labwc session at boot.
[Seat:*]
autologin-user=$KIOSK_USER
autologin-session=tablekit-kiosk
user-session=tablekit-kiosk
EOF
    # labwc's files are root's: the kiosk user cannot change its own lock-down.
    put_file 0755 root:root "$LABWC_DIR/autostart" plain <"$HERE/labwc/autostart"
    put_file 0755 root:root "$LABWC_DIR/session" plain <"$HERE/labwc/session"
    put_file 0644 root:root "$LABWC_DIR/rc.xml" plain <"$HERE/labwc/rc.xml"
    put_file 0644 root:root "$LABWC_DIR/menu.xml" plain <"$HERE/labwc/menu.xml"
    # An earlier install put them in the user's own labwc folder; the session no longer reads it.
    remove "$home/.config/labwc"
    local conf="$home/.config"
    run install -d -o "$KIOSK_USER" -g "$KIOSK_USER" "$conf" "$conf/systemd" "$conf/systemd/user"
    put_file 0644 "$owner" "$conf/systemd/user/tablekit-kiosk.service" unit <"$HERE/tablekit-kiosk-user.service"
    run systemctl set-default graphical.target
}

uninstall() {
    say "removing the kiosk units and configuration (user $KIOSK_USER and $DATA stay)"
    if [ -e "$SYSTEM_UNIT" ]; then
        run systemctl disable --now tablekit-kiosk.service
    fi
    remove "$SYSTEM_UNIT" "$LOGIND_DROPIN" "$SYSCTL_DROPIN" "$LIGHTDM_DROPIN" "$KIOSK_SESSION" "$LABWC_DIR" \
        "$UDEV_RULE" "$LAUNCHER" "$VENV"
    if [ -d "$PREFIX/bin" ]; then run rmdir --ignore-fail-on-non-empty "$PREFIX/bin"; fi
    if [ -d "$PREFIX" ]; then run rmdir --ignore-fail-on-non-empty "$PREFIX"; fi
    # a Lite install booted to the console; a desktop image boots to its desktop again
    if [ -d /etc/lightdm ]; then run systemctl set-default graphical.target; fi
    if [ -d "${LABWC_DIR%/*}" ]; then run rmdir --ignore-fail-on-non-empty "${LABWC_DIR%/*}"; fi
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
    if [ "$MODE" = desktop ] && ! { command -v labwc >/dev/null 2>&1 && [ -d /etc/lightdm ]; }; then
        # on Lite this would lock the console and boot to a black screen
        if [ "$DRY_RUN" = 1 ]; then
            echo "note: no labwc and LightDM here: on a Pi, desktop mode would be refused (use --mode lite)"
        else
            die "desktop mode needs labwc and LightDM (Pi OS with desktop): use --mode lite on Pi OS Lite"
        fi
    fi
    say "mode: $MODE; user: $KIOSK_USER; venv: $VENV; data: $DATA"
    if [ -n "$SIZE" ]; then say "screen size: $SIZE"; fi
    say "the table runs: $LAUNCHER (resumes the unfinished game, else starts $DATA/new-game.args)"
    install_packages
    create_user
    install_kit
    lock_consoles
    if [ "$MODE" = lite ]; then setup_lite; else setup_desktop; fi
    say "done: reboot to start the table (players get the table screen and nothing else)"
}

main
