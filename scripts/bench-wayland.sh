#!/bin/sh
# The KDE Plasma benchmark: the agent as installed (release, Swift runtime linked statically) on a
# private KWin 5.27, granted org_kde_plasma_window_management; two windows switch focus every
# second, one of an app over its limit. Prints the activation-to-minimize latency a KWin client
# sees, and the agent's CPU seconds and RSS.
set -eu
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
for product in screentime screentime-agent; do
    swift build -c release --static-swift-stdlib --scratch-path .build/static --product "$product"
done
swift build -c release --product screentime-wayland-bench
SCREENTIME_BIN_DIR=.build/static/release .build/release/screentime-wayland-bench "${1:-30}"
