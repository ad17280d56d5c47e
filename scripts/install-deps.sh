#!/bin/sh
# Installs the Debian/Ubuntu packages screentime needs: the C libraries it builds against and,
# with --test, the real desktop the tests run on (X server, window manager, bus, notifications)
# and the calendar tests' independent reference (Python's icalendar, pinned, in a venv).
set -eu

# What the Swift toolchain itself needs on a fresh Debian/Ubuntu (swift.org's list, less lldb's).
toolchain="binutils libc6-dev libgcc-12-dev libstdc++-12-dev libncurses6 libedit2 zlib1g-dev tzdata"
build="pkg-config gettext libx11-dev libxext-dev libxrandr-dev libxss-dev libdbus-1-dev libsqlite3-dev libical-dev libwayland-dev wayland-protocols libgtk-3-dev libgtk-layer-shell-dev libcurl4-openssl-dev libxml2-dev"
test="xvfb openbox dunst fonts-dejavu-core adwaita-icon-theme sway foot mako-notifier i3-wm kwin-wayland libkf5service-bin xwayland weston wayland-utils gnome-shell gjs mutter gnome-settings-daemon libpng-dev dbus-daemon dbus-bin xdotool x11-utils x11-xserver-utils libfaketime mpv mpv-mpris xterm gtk-4-examples libglib2.0-bin pinentry-gtk2 libnotify-bin xfce4-notifyd dpkg-dev desktop-file-utils man-db bash-completion zsh fish make python3 python3-venv unicode-cldr-core chromium firefox-esr libgtk-3-bin gucharmap aisleriot pavucontrol transmission-gtk kcalc lxterminal xfce4-terminal qterminal featherpad mupdf fontconfig syncthing rsync curl plasma-sdk plasma-framework qml-module-org-kde-kirigami2 qml-module-qtquick-layouts qml-module-qtquick-controls2 kpackagetool5 qtdeclarative5-dev-tools qttranslations5-l10n gdb"

packages="$toolchain $build"
[ "${1:-}" = "--test" ] && packages="$toolchain $build $test"

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
missing=$(for p in $packages; do dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "ok installed" || echo "$p"; done)
if [ -n "$missing" ]; then
    $sudo apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
fi

# The calendar tests compare occurrences with Python's icalendar + recurring-ical-events (PyPI;
# Debian's python3-icalendar is too old), pinned, in a venv at a fixed place the tests know.
if [ "${1:-}" = "--test" ]; then
    venv=/opt/screentime-test/venv
    requirements="$(dirname "$0")/../Tests/CalendarFeedTests/Reference/requirements.txt"
    [ -x "$venv/bin/python" ] || $sudo /usr/bin/python3 -m venv "$venv"
    $sudo "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
fi
