import FoundationEssentials

/// A fade from one filter to another over `duration`, in `steps` visible steps: what to show at a
/// moment and when the next step is due. Pure; the caller's loop supplies the time.
public struct ColorFilterFade: Equatable, Sendable {
    /// How long a change of filter takes to fade in.
    public static let duration: TimeInterval = 2
    /// How many visible steps a fade has.
    public static let steps = 20
    public static let stepInterval = duration / Double(steps)

    public let from: ColorFilter
    public let to: ColorFilter
    public let start: Date

    public init(from: ColorFilter, to: ColorFilter, start: Date) {
        self.from = from
        self.to = to
        self.start = start
    }

    /// The filter to show at `now`, and when the next step is due (nil: `to` is reached).
    public func frame(at now: Date) -> (filter: ColorFilter, next: Date?) {
        let elapsed = max(now.timeIntervalSince(start), 0)
        if elapsed >= Self.duration { return (to, nil) }
        // Keep to the fade's own grid, so a late loop skips steps instead of stretching the fade.
        // (The tolerance keeps 0.3 / 0.1 = 2.999… from asking for the step just shown again.)
        let nextStep = (elapsed / Self.stepInterval + 1e-6).rounded(.down) + 1
        let next = start.addingTimeInterval(min(nextStep * Self.stepInterval, Self.duration))
        return (from.blended(toward: to, fraction: elapsed / Self.duration), next)
    }
}
