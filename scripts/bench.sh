#!/bin/sh
# The agent benchmark, on the desktop named (default x11), as installed: release build, Swift
# runtime linked statically. Prints the activation-to-minimize latency (median, p90), the agent's
# CPU seconds and RSS, with the defaults a user has (cards on).
#   x11   private Xvfb + openbox + dbus + dunst, beside the floor (screentime-floor, a bare Xlib
#         watcher built the same way), cards on as users have them: a limited app reopened 20
#         times (and the floor's window as often), then three unlimited windows switching focus
#         every 0.5 s; the ratios to the floor and the agent's RSS; then what a change of a root
#         window property the agent ignores costs both.
#   sway  headless sway: three foot windows every 0.5 s, the disabled one back from the scratchpad.
#   gnome headless GNOME Shell with the extension: three windows every 0.5 s.
#   kwin  KWin 5.27, the agent granted org_kde_plasma_window_management: two windows every second.
#   card  the restriction card on the x11 desktop: from the minimize to the card's window mapped,
#         median and max over 20 disables (the count instead of seconds), and the agent's RSS.
#   widgets  the Plasma applet (plasmoidviewer, in a panel) and GNOME's top-bar indicator over an
#         hour (3600 s) of normal use: a focus change every 30 s, a mode change every 15 min; their
#         CPU, and the signals they followed.
# Usage: scripts/bench.sh [x11|sway|gnome|kwin|card|widgets] [seconds|count]
set -eu
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
desktop=x11
case "${1:-}" in x11|sway|gnome|kwin|card|widgets) desktop=$1; shift ;; esac
for product in screentime screentime-reader screentime-agent screentime-floor screentime-card; do
    swift build -c release --static-swift-stdlib --scratch-path .build/static --product "$product"
done
swift build -c release --product screentime-bench
if [ "$desktop" = x11 ]; then
    SCREENTIME_BIN_DIR=.build/static/release .build/release/screentime-bench "${1:-60}"
else
    SCREENTIME_BIN_DIR=.build/static/release .build/release/screentime-bench "$desktop" ${1:+"$1"}
fi
