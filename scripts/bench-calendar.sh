#!/bin/sh
# The calendar benchmark: generated .ics exports of about 1 MB and 10 MB with hundreds and thousands
# of damaged lines beside normal and recurring events naming modes, each read as
# `screentime calendar expand` reads it (release build). Prints the median and slowest read of each.
# Target: the 1 MB file under 1 s. SCREENTIME_BENCH_KEEP=1 keeps the files. Usage: scripts/bench-calendar.sh [runs]
set -eu
cd "$(dirname "$0")/.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product screentime-calendar-bench
.build/release/screentime-calendar-bench "${1:-5}"
