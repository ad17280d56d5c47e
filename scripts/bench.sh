#!/bin/sh
# The agent benchmark: the agent as installed (release, Swift runtime linked statically) on a
# private Xvfb + openbox + dbus + dunst, beside its floor (screentime-floor, a bare Xlib watcher
# built the same way); four windows switch focus every 0.5 s for 60 s. Prints the agent's and
# the floor's activation-to-minimize latency and CPU seconds, their ratios, and the agent's RSS.
# `--sway [seconds]`: the agent on headless sway instead (activation -> scratchpad, CPU per 60 s).
set -eu
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
for product in screentime screentime-agent screentime-floor; do
    swift build -c release --static-swift-stdlib --scratch-path .build/static --product "$product"
done
swift build -c release --product screentime-bench
if [ "${1:-}" = "--sway" ]; then
    SCREENTIME_BIN_DIR=.build/static/release .build/release/screentime-bench sway "${2:-60}"
else
    SCREENTIME_BIN_DIR=.build/static/release .build/release/screentime-bench "${1:-60}"
fi
