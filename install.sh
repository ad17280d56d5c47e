#!/bin/sh
# Installs screentime for the current user and starts the agent: Debian packages, a release
# build in ~/.local/bin, a systemd user unit (or an XDG autostart entry without systemd).
set -eu
cd "$(dirname "$0")"
scripts/install-deps.sh
# The Swift runtime linked statically: the always-running agent maps only what it uses.
# screentime-card (the restriction card, GTK) is started by the agent from beside itself, and
# screentime-reader (the commands reading calendars and feeds) by screentime.
for product in screentime screentime-reader screentime-agent screentime-card screentime-browser-host; do
    PATH="/opt/swift/usr/bin:$PATH" swift build -c release --static-swift-stdlib --product "$product"
done
bin="$HOME/.local/bin"
install -Dm755 .build/release/screentime "$bin/screentime"
install -Dm755 .build/release/screentime-reader "$bin/screentime-reader"
install -Dm755 .build/release/screentime-agent "$bin/screentime-agent"
install -Dm755 .build/release/screentime-card "$bin/screentime-card"
# The browser extension's native host, and the extension with the manifests naming it.
install -Dm755 .build/release/screentime-browser-host "$bin/screentime-browser-host"
desktop/browser/install.sh "$bin/screentime-browser-host"
# The app's and the modes' icons, for notifications and status bars.
icons="${XDG_DATA_HOME:-$HOME/.local/share}/icons/hicolor/scalable/apps"
mkdir -p "$icons" && install -m644 packaging/icons/*.svg "$icons/"
# KWin offers its window list (org_kde_plasma_window_management) only to a program a desktop
# entry names, by its Exec path; KDE's service cache must know the entry.
applications="${XDG_DATA_HOME:-$HOME/.local/share}/applications"
mkdir -p "$applications"
sed "s|@BIN@|$bin|g" packaging/screentime-agent-kwin.desktop > "$applications/screentime-agent.desktop"
if command -v kbuildsycoca5 >/dev/null 2>&1; then kbuildsycoca5 >/dev/null 2>&1 || true; fi
if command -v kbuildsycoca6 >/dev/null 2>&1; then kbuildsycoca6 >/dev/null 2>&1 || true; fi

# GNOME Shell: the extension through which the agent sees focus, minimizes and grays the screen.
if command -v gnome-shell >/dev/null 2>&1; then
    desktop/gnome-shell/install.sh
fi

# KDE Plasma: the applet showing today's time and the mode, with the mode's buttons.
if command -v plasmashell >/dev/null 2>&1; then
    desktop/plasma/install.sh "$bin"
fi

if systemctl --user show-environment >/dev/null 2>&1; then
    unit="${XDG_CONFIG_HOME:-$HOME/.config}/systemd/user/screentime.service"
    sed "s|@BIN@|$bin|g" packaging/screentime.service > "$unit.tmp" && install -Dm644 "$unit.tmp" "$unit" && rm "$unit.tmp"
    systemctl --user daemon-reload
    systemctl --user enable --now screentime.service
    sleep 1
    if systemctl --user is-active --quiet screentime.service; then
        echo "screentime: agent started (systemctl --user status screentime)"
    else
        echo "screentime: the agent did not keep running in this session (journalctl --user -u screentime says why); it is enabled and starts at your next login"
    fi
    # sway and i3 import the session's variables but start no graphical-session.target.
    case "${XDG_CURRENT_DESKTOP:-}:${SWAYSOCK:-}${I3SOCK:-}" in
    *sway*|*i3*|*:?*) echo "screentime: on sway or i3, add this line to your config so the agent starts with the session:"
                      echo "    exec systemctl --user start screentime" ;;
    esac
else
    autostart="${XDG_CONFIG_HOME:-$HOME/.config}/autostart/screentime.desktop"
    mkdir -p "$(dirname "$autostart")"
    sed "s|@BIN@|$bin|g" packaging/screentime-autostart.desktop > "$autostart"
    log="${XDG_STATE_HOME:-$HOME/.local/state}/screentime/install-agent.log"
    mkdir -p "$(dirname "$log")" && chmod 700 "$(dirname "$log")"
    nohup "$bin/screentime" agent >/dev/null 2>"$log" &
    agent=$!
    # An agent without a session bus exits at once: say so rather than "started".
    sleep 1
    if kill -0 "$agent" 2>/dev/null; then
        echo "screentime: agent started; it starts again at login ($autostart)"
    else
        echo "screentime: the agent could not run in this session: $(tail -n 1 "$log")"
        echo "screentime: it starts at your next login ($autostart)"
    fi
fi
"$bin/screentime" doctor || true
