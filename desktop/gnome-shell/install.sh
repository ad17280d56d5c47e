#!/bin/sh
# Installs the extension for the current user, built for the installed GNOME Shell, and enables
# it. GNOME offers other programs no way to see or minimize windows or gray the screen: the agent
# does it through this extension.
set -eu
here="$(cd "$(dirname "$0")" && pwd)"
uuid="screentime@screentime.org"
"$here/build.sh" "${XDG_DATA_HOME:-$HOME/.local/share}/gnome-shell/extensions/$uuid"
# A shell that has not loaded the new extension yet (Wayland, until the next login) refuses
# `gnome-extensions enable`: the setting it reads at login is written instead.
gnome-extensions enable "$uuid" 2>/dev/null || {
    enabled=$(gsettings get org.gnome.shell enabled-extensions 2>/dev/null || echo "@as []")
    case "$enabled" in
        *"'$uuid'"*) ;;
        "@as []"|"[]") gsettings set org.gnome.shell enabled-extensions "['$uuid']" ;;
        *) gsettings set org.gnome.shell enabled-extensions "${enabled%]}, '$uuid']" ;;
    esac
} || echo "screentime: could not enable the extension here: in your GNOME session run gnome-extensions enable $uuid"
echo "screentime: GNOME Shell extension $uuid installed and enabled; on Wayland, log out and in once so GNOME Shell loads it"
