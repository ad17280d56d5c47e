/// How much recurrence one event and one file may cost. libical makes a rule's occurrences one by
/// one and walks the periods of its frequency to find them (a year of seconds for a secondly rule
/// limited to February), so a read is bounded only if both are bounded before the walk: hundreds of
/// secondly series in one file ran for minutes. An event's walk starts near the window read (see
/// `ICalEvent.ruleStarts`), so a real series costs a few dozen; what a bound cuts is named.
struct RecurrenceBound {
    /// Occurrences made (kept or not).
    var made: Int
    /// Periods of the rule's frequency walked through.
    var periods: Int

    /// An hourly series through the weeks read makes about 800; one every 15 minutes 3,300.
    static let perEvent = RecurrenceBound(made: 5_000, periods: 20_000)
    /// About half a second of libical's work, and of reading the occurrences it makes.
    static let perFile = RecurrenceBound(made: 10_000, periods: 100_000)
}

/// What is left of a file's `RecurrenceBound.perFile`, handed from event to event.
struct RecurrenceBudget {
    private(set) var left = RecurrenceBound.perFile

    /// What the next event may spend: its own bound, or what the file has left if that is less.
    var forNextEvent: RecurrenceBound {
        RecurrenceBound(made: min(left.made, RecurrenceBound.perEvent.made), periods: min(left.periods, RecurrenceBound.perEvent.periods))
    }

    /// Whether the file's bound, rather than the event's own, is the one that stops an event.
    var fileBoundApplies: Bool {
        left.made < RecurrenceBound.perEvent.made || left.periods < RecurrenceBound.perEvent.periods
    }

    mutating func spend(_ walk: RuleWalk) {
        left.made = max(0, left.made - walk.made)
        left.periods = max(0, left.periods - walk.periods)
    }
}
