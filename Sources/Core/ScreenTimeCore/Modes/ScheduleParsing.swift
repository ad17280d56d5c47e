import FoundationEssentials

/// A command-line value that could not be read, with a message that says what to type instead.
public struct ScheduleParseError: Error, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension ScheduleEntry {
    /// Reads `schedule add MODE --at WHEN [--for DURATION] [--every DAYS]`.
    ///
    /// `WHEN` is `HH:MM` (with `--every`: weekly; without: once, at the next such time), or a date and a
    /// time (`2026-03-14 09:00`, `tomorrow 09:00`) for a one-off entry.
    public static func parse(mode modeText: String, at whenText: String, for durationText: String? = nil,
                             every daysText: String? = nil, now: Date,
                             zone: LocalTimeZone) throws(ScheduleParseError) -> ScheduleEntry {
        guard let mode = Mode(name: modeText) else {
            let names = Mode.switchable.map(\.rawValue).joined(separator: ", ")
            throw ScheduleParseError("“\(modeText)” is not a mode; choose one of \(names).")
        }
        guard mode != .cheatDay else {
            throw ScheduleParseError("A Cheat Day is booked at least 12 hours ahead with `screentime cheat-day book WHEN`, not scheduled.")
        }
        var duration = ScheduleEntry.defaultDuration
        if let durationText {
            do { duration = try DurationText.parse(durationText) } catch { throw ScheduleParseError("\(error).") }
            guard duration > 0 else { throw ScheduleParseError("--for needs a duration longer than zero, e.g. 1h.") }
        }
        guard duration <= 7 * 86_400 else {
            throw ScheduleParseError("A scheduled mode lasts at most 7 days; “\(durationText ?? "")” is longer.")
        }
        let when = try WhenText.parse(whenText, now: now, zone: zone)
        switch (when, daysText) {
        case (.timeOfDay(let time), let days?):
            return ScheduleEntry(mode: mode, start: time, duration: duration, repetition: .weekly(try DayListText.parse(days)))
        case (.timeOfDay(let time), nil):
            let today = zone.localDate(of: now)
            let date = zone.instant(of: today, at: time) > now ? today : today.adding(days: 1)
            return ScheduleEntry(mode: mode, start: time, duration: duration, repetition: .once(date))
        case (.dateTime(let moment), nil):
            guard zone.instant(of: moment.date, at: moment.time).addingTimeInterval(duration) > now else {
                throw ScheduleParseError("\(moment) for \(DurationText.format(duration)) is already over.")
            }
            return ScheduleEntry(mode: mode, start: moment.time, duration: duration, repetition: .once(moment.date))
        case (.dateTime, _?):
            throw ScheduleParseError("--every repeats a time of day; give --at as HH:MM without a date.")
        }
    }
}

/// A local time the user typed: a bare time of day, or a date and a time.
public enum WhenText: Equatable, Sendable {
    case timeOfDay(WallTime)
    case dateTime(LocalDateTime)

    /// Accepts `09:00`, `2026-03-14 09:00`, `2026-03-14T09:00`, `2026-03-14` (midnight), and
    /// `today 09:00` / `tomorrow 09:00` / `tomorrow` relative to `now` in `zone`.
    public static func parse(_ text: String, now: Date, zone: LocalTimeZone) throws(ScheduleParseError) -> WhenText {
        var parts: [String] = text.split(separator: " ").map { String($0) }
        // ISO 8601's `2026-03-14T09:00`.
        if parts.count == 1, let t = parts[0].firstIndex(of: "T"), parts[0].distance(from: parts[0].startIndex, to: t) == 10 {
            parts = [String(parts[0][..<t]), String(parts[0][parts[0].index(after: t)...])]
        }
        let hint = "Write a time as HH:MM (09:00) or a date and time as YYYY-MM-DD HH:MM (2026-03-14 09:00)."
        func time(_ part: String) throws(ScheduleParseError) -> WallTime {
            guard let value = parseWallTime(part) else { throw ScheduleParseError("“\(part)” is not a time. \(hint)") }
            return value
        }
        func date(_ part: String) throws(ScheduleParseError) -> CivilDate {
            let today = zone.localDate(of: now)
            switch part.lowercased() {
            case "today": return today
            case "tomorrow": return today.adding(days: 1)
            default:
                guard let value = parseLocalDate(part) else { throw ScheduleParseError("“\(part)” is not a date. \(hint)") }
                return value
            }
        }
        switch parts.count {
        case 1 where parts[0].contains(":"):
            return .timeOfDay(try time(parts[0]))
        case 1:
            return .dateTime(LocalDateTime(date: try date(parts[0]), time: WallTime(secondsOfDay: 0)))
        case 2:
            return .dateTime(LocalDateTime(date: try date(parts[0]), time: try time(parts[1])))
        default:
            throw ScheduleParseError("“\(text)” is not a time. \(hint)")
        }
    }

    /// The instant meant: a date and time as given; a bare time of day at its next occurrence after `now`
    /// (for `cheat-day book 08:00`).
    public func instant(after now: Date, zone: LocalTimeZone) -> Date {
        switch self {
        case .dateTime(let moment):
            return zone.instant(of: moment.date, at: moment.time)
        case .timeOfDay(let time):
            let today = zone.localDate(of: now)
            let candidate = zone.instant(of: today, at: time)
            return candidate > now ? candidate : zone.instant(of: today.adding(days: 1), at: time)
        }
    }

    /// `HH:MM` or `HH:MM:SS`, 24-hour clock.
    static func parseWallTime(_ text: String) -> WallTime? {
        let fields = text.split(separator: ":", omittingEmptySubsequences: false)
        guard (2...3).contains(fields.count), fields.allSatisfy({ !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isASCIIDigit) }),
              let hour = Int(fields[0]), let minute = Int(fields[1]) else { return nil }
        let second = fields.count == 3 ? Int(fields[2]) ?? 60 : 0
        guard hour < 24, minute < 60, second < 60 else { return nil }
        return WallTime(hour: hour, minute: minute, second: second)
    }

    /// `YYYY-MM-DD`, a real day.
    static func parseLocalDate(_ text: String) -> CivilDate? {
        let fields = text.split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 4, fields[1].count == 2, fields[2].count == 2,
              fields.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }),
              let year = Int(fields[0]), let month = Int(fields[1]), let day = Int(fields[2]) else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        return date.isValid ? date : nil
    }
}

/// Days of the week as `--every` takes them: `daily`, `weekdays`, `weekends`, `mon-fri`, `sat,sun`,
/// `mon,wed,fri`, `fri-mon` (ranges wrap around the week), full names too.
public enum DayListText {
    public static func parse(_ text: String) throws(ScheduleParseError) -> Set<Weekday> {
        let key = text.lowercased().trimmedOfSpaces
        switch key {
        case "daily", "every day", "everyday", "all": return Set(Weekday.allCases)
        case "weekdays": return [.monday, .tuesday, .wednesday, .thursday, .friday]
        case "weekends", "weekend": return [.saturday, .sunday]
        default: break
        }
        var days = Set<Weekday>()
        for item in key.split(separator: ",").map({ String($0).trimmedOfSpaces }) {
            let ends = item.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            guard (1...2).contains(ends.count), let first = weekday(ends[0]), let last = weekday(ends[ends.count - 1]) else {
                throw ScheduleParseError("“\(text)” is not a list of days; write e.g. mon-fri, sat,sun or daily.")
            }
            var day = first
            days.insert(day)
            while day != last {
                day = Weekday(rawValue: day.rawValue % 7 + 1)!
                days.insert(day)
            }
        }
        guard !days.isEmpty else { throw ScheduleParseError("--every needs at least one day, e.g. mon-fri.") }
        return days
    }

    /// `daily`, `mon-fri`, `sat,sun` -> `sat-sun`, `mon,wed,fri`.
    public static func format(_ days: Set<Weekday>) -> String {
        if days.count == 7 { return "daily" }
        var runs: [[Weekday]] = []
        for day in days.sorted() {
            if let last = runs.last?.last, last.rawValue + 1 == day.rawValue { runs[runs.count - 1].append(day) }
            else { runs.append([day]) }
        }
        return runs.map { run in
            run.count == 1 ? run[0].shortName : "\(run[0].shortName)-\(run[run.count - 1].shortName)"
        }.joined(separator: ",")
    }

    static func weekday(_ text: String) -> Weekday? {
        guard text.count >= 2 else { return nil }
        return Weekday.allCases.first { day in
            let full = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"][day.rawValue - 1]
            return text == day.shortName || text == full
        }
    }
}

fileprivate extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}

fileprivate extension String {
    var trimmedOfSpaces: String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
