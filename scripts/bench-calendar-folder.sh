#!/bin/sh
# The calendar-folder benchmark: a CalDAV collection synced as one file per event (Nextcloud,
# DAVx⁵, vdirsyncer), each file a VCALENDAR with its VTIMEZONE and one VEVENT, every tenth naming
# Productivity; times `screentime-reader calendar expand` over a month on it, as the agent runs
# it (a whole process), built as installed (release, Swift runtime linked statically). The agent stops
# an expansion after 10 s. SCREENTIME_BIN overrides the binary (no build). TZID names the files'
# zone: an IANA name (Europe/Berlin, the default) or an Outlook one ("W. Europe Standard Time"),
# which is read with the file's VTIMEZONE.
# Usage: scripts/bench-calendar-folder.sh [files] [runs] [TZID]
set -eu
cd "$(dirname "$0")/.."
files="${1:-2000}" runs="${2:-5}" tzid="${3:-Europe/Berlin}"
if [ -z "${SCREENTIME_BIN:-}" ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
    swift build -c release --static-swift-stdlib --scratch-path .build/static --product screentime-reader
    SCREENTIME_BIN=.build/static/release/screentime-reader
fi
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
folder="$home/.calendars/personal"
mkdir -p "$folder" "$home/.config/screentime"
printf '[calendars]\npaths = %s\n' "$home/.calendars" > "$home/.config/screentime/config"
awk -v files="$files" -v folder="$folder" -v tzid="$tzid" 'BEGIN {
    zone = "BEGIN:VTIMEZONE\r\nTZID:" tzid "\r\nBEGIN:DAYLIGHT\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nTZNAME:CEST\r\n" \
           "DTSTART:19700329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nEND:DAYLIGHT\r\nBEGIN:STANDARD\r\n" \
           "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nTZNAME:CET\r\nDTSTART:19701025T030000\r\n" \
           "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\n"
    for (i = 0; i < files; i++) {
        uid = sprintf("%08X-7E1B-4C2A-9D3F-%012X", i * 7919, i)
        day = sprintf("202612%02dT", 1 + int(i / 10) % 30)
        summary = (i % 10 == 0) ? "Productivity: sprint " i : "Meeting " i
        file = folder "/" uid ".ics"
        printf "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//IDN nextcloud.com//Calendar app 4.6.4//EN\r\nCALSCALE:GREGORIAN\r\n%s" \
               "BEGIN:VEVENT\r\nUID:%s\r\nDTSTAMP:20261101T120000Z\r\nDTSTART;TZID=%s:%s090000\r\n" \
               "DTEND;TZID=%s:%s100000\r\nSUMMARY:%s\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n", zone, uid, tzid, day, tzid, day, summary > file
        close(file)
    }
}'
printf 'displayname\n' > "$folder/displayname"
# December 2026, as the agent asks: from, to, now.
best=""
total=0
run=0
while [ "$run" -lt "$runs" ]; do
    start=$(date +%s%N)
    HOME="$home" TZ=Europe/Berlin "$SCREENTIME_BIN" calendar expand --from 1796083200 --to 1798761600 --now 1796083200 > "$home/out.json"
    took=$(( ($(date +%s%N) - start) / 1000000 ))
    total=$((total + took))
    if [ -z "$best" ] || [ "$took" -lt "$best" ]; then best=$took; fi
    run=$((run + 1))
done
events=$(grep -o '"mode"' "$home/out.json" | wc -l)
echo "calendar expand of $files one-event files in $tzid ($events mode events): best ${best} ms, mean $((total / runs)) ms over $runs runs"
