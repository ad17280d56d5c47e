import FoundationEssentials

/// What arrived overnight while notifications were silenced: since the night began (the evening's
/// Wind Down, else Sleep, else Wake Up), counted per app.
public enum Overnight {
    /// Mode changes further back than this belong to another night.
    public static let lookBack: TimeInterval = 24 * 3600
    /// Without any night mode: the last 12 hours.
    public static let fallback: TimeInterval = 12 * 3600

    /// The start of the night before `now`, from the mode changes (mode name, when): the first change
    /// of the unbroken run of Wind Down, Sleep and Wake Up that ends with the latest change, counting
    /// only Wind Down and Sleep when the run has them.
    public static func start(changes: [(mode: String, at: Date)], before now: Date) -> Date {
        let night: Set<String> = [Mode.windDown.rawValue, Mode.sleep.rawValue]
        let recent = changes.filter { $0.at <= now && now.timeIntervalSince($0.at) <= lookBack }.sorted { $0.at < $1.at }
        let run = recent.reversed().prefix { night.contains($0.mode) || $0.mode == Mode.wakeUp.rawValue }
        return run.last { night.contains($0.mode) }?.at ?? run.last?.at ?? now.addingTimeInterval(-fallback)
    }

    /// `3 from Signal`, most first (then by name), names from `name`.
    public static func lines(_ counts: [String: Int], name: (String) -> String) -> [String] {
        counts.filter { $0.value > 0 }.map { (name($0.key), $0.value) }
            .sorted { ($1.1, $0.0) < ($0.1, $1.0) }
            .map { "\($0.1) from \($0.0)" }
    }
}
