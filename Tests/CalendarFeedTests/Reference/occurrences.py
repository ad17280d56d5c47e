"""Prints every occurrence of the events of an .ics file overlapping a range, as the independent
reference for screentime's calendar reader: Python's icalendar with recurring-ical-events.

Usage: occurrences.py FILE FROM TO ZONE
FROM and TO are Unix seconds; floating times and all-day dates are placed in the IANA zone ZONE
(the user's). One line per occurrence, sorted: "START END SUMMARY", START and END in Unix seconds.
Cancelled events are left out, as screentime leaves them out.
"""

import datetime
import sys
import zoneinfo

import icalendar
import recurring_ical_events


def instant(value, zone):
    """Unix seconds of a date (local midnight), a floating date-time (local) or a zoned one."""
    if not isinstance(value, datetime.datetime):
        value = datetime.datetime(value.year, value.month, value.day)
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone)
    return int(value.timestamp())


def main():
    path, start, stop, zone_name = sys.argv[1:]
    zone = zoneinfo.ZoneInfo(zone_name)
    with open(path, "rb") as file:
        calendars = icalendar.Calendar.from_ical(file.read(), multiple=True)
    # A file may hold several VCALENDARs (exports saved one after another): read as one.
    calendar = icalendar.Calendar()
    for part in calendars:
        for component in part.subcomponents:
            calendar.add_component(component)
    begin = datetime.datetime.fromtimestamp(int(start), zone)
    end = datetime.datetime.fromtimestamp(int(stop), zone)
    lines = []
    for event in recurring_ical_events.of(calendar).between(begin, end):
        if str(event.get("STATUS", "")).upper() == "CANCELLED":
            continue
        first = instant(event["DTSTART"].dt, zone)
        last = instant(event["DTEND"].dt, zone) if "DTEND" in event else first
        if first < int(stop) and last > int(start):
            lines.append((first, last, str(event.get("SUMMARY", ""))))
    for first, last, summary in sorted(lines):
        print(first, last, summary)


main()
