#!/bin/sh
# The report benchmark: writes a year of synthetic history (about 200 focus changes a day for 365
# days) through UsageStore into a real SQLite file, then times the release `screentime report week`
# and `report --from <a year ago>` on it, as whole processes. Target: each at most 100 ms.
# Usage: scripts/bench-report.sh [days] [runs]
set -eu
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product screentime
swift build -c release --product screentime-report-bench
.build/release/screentime-report-bench .build/release/screentime "${1:-365}" "${2:-11}"
