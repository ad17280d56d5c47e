import FoundationEssentials

/// What each duration setting may be, checked wherever one enters (config file, CLI, D-Bus), so a
/// typo of 18 digits is an error naming the setting rather than an absurd number the agent acts on.
public enum DurationBounds {
    public static let day: TimeInterval = 86_400

    /// A daily limit, the default one too: up to a whole day.
    public static let limit: ClosedRange<TimeInterval> = 0...day
    public static let idleAfter: ClosedRange<TimeInterval> = 1...day
    public static let countdownMark: ClosedRange<TimeInterval> = 0...day
    public static let continueFor: ClosedRange<TimeInterval> = 1...day
    /// Wind Down, Sleep, Wake Up offsets and the `stay-up` pause.
    public static let sleepOffset: ClosedRange<TimeInterval> = 0...day
    /// At least a minute between Productivity breaks, so the rhythm stays a few steps per day.
    public static let breakEvery: ClosedRange<TimeInterval> = 60...day
    public static let breakLength: ClosedRange<TimeInterval> = 1...day
    public static let bypass: ClosedRange<TimeInterval> = 1...day

    /// Reads `text` as the duration of `name`, which must lie in `bounds`.
    public static func parse(_ text: String, for name: String,
                             within bounds: ClosedRange<TimeInterval>) throws(DurationBoundsError) -> TimeInterval {
        let seconds: TimeInterval
        do { seconds = try DurationText.parse(text) } catch {
            throw DurationBoundsError(message: "\(name): \(error)")
        }
        try check(seconds, for: name, within: bounds)
        return seconds
    }

    /// Checks a number of seconds already read (a D-Bus argument).
    public static func check(_ seconds: TimeInterval, for name: String,
                             within bounds: ClosedRange<TimeInterval>) throws(DurationBoundsError) {
        guard bounds.contains(seconds) else {
            let given = seconds <= DurationText.longest ? DurationText.format(seconds) : "more than a year (\(seconds) s)"
            throw DurationBoundsError(message: "\(name) must be from \(DurationText.format(bounds.lowerBound)) to "
                                      + "\(DurationText.format(bounds.upperBound)), not \(given)")
        }
    }
}

public struct DurationBoundsError: Error, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
