#!/bin/sh
# The report benchmark: writes a year of synthetic history (about 200 focus changes a day for 365
# days) through UsageStore into a real SQLite file, then times `screentime report week` and
# `report --from <a year ago>` (text, --json, --html) on it as whole processes, built as installed (release, Swift runtime
# linked statically). Target: each at most 100 ms. SCREENTIME_BENCH_KEEP=1 keeps the history.
# Usage: scripts/bench-report.sh [days] [runs]
set -eu
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --static-swift-stdlib --scratch-path .build/static --product screentime
swift build -c release --product screentime-report-bench
.build/release/screentime-report-bench .build/static/release/screentime "${1:-365}" "${2:-11}"
