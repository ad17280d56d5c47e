#!/bin/sh
# The agent benchmark on GNOME: the agent as installed (release, Swift runtime linked statically)
# on a headless GNOME Shell with the project's extension; three windows switch focus every 0.5 s
# for 60 s, every other switch to an app over its limit. Prints the activation-to-minimize
# latency (median, p90) and the agent's CPU seconds and RSS.
set -eu
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
for product in screentime screentime-agent; do
    swift build -c release --static-swift-stdlib --scratch-path .build/static --product "$product"
done
swift build -c release --product screentime-bench
SCREENTIME_BIN_DIR=.build/static/release .build/release/screentime-bench gnome "${1:-60}"
