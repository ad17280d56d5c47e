import FoundationEssentials

/// A loosening waiting for its time: `facet` goes from `held` (what holds now) to `target` at `due`.
public struct PendingChange: Codable, Equatable, Sendable {
    public var facet: String
    public var target: String?
    public var held: String?
    public var made: Date
    public var due: Date

    public init(facet: String, target: String?, held: String?, made: Date, due: Date) {
        self.facet = facet
        self.target = target
        self.held = held
        self.made = made
        self.due = due
    }
}

/// A tightening just made, remembered for the typo window: undoing it soon after applies at once.
public struct RecentTightening: Codable, Equatable, Sendable {
    public var facet: String
    /// The facet's value before the tightening.
    public var before: String?
    public var at: Date

    public init(facet: String, before: String?, at: Date) {
        self.facet = facet
        self.before = before
        self.at = at
    }
}

/// What holds the user to their word: the facets in force, the loosenings waiting and the
/// tightenings just made. Compared with the settings the user wants now (the config file as it
/// is), it gives the settings that hold: tightening at once, loosening at its due time.
public struct CommitmentBook: Codable, Equatable, Sendable {
    /// The facets in force; nil before the first reconciliation (then the wanted settings are taken as they are).
    public var effective: [String: String]?
    public var pending: [PendingChange] = []
    public var tightenings: [RecentTightening] = []

    public init(effective: [String: String]? = nil, pending: [PendingChange] = [], tightenings: [RecentTightening] = []) {
        self.effective = effective
        self.pending = pending
        self.tightenings = tightenings
    }

    /// The earliest moment a pending change is due.
    public var nextDue: Date? { pending.map(\.due).min() }

    /// Compares `wanted` with what is in force at `now`.
    public func reconciled(wanted: Settings, now: Date, zone: LocalTimeZone) -> CommitmentOutcome {
        let wantedFacets = wanted.facets
        guard let old = effective else {
            return CommitmentOutcome(book: CommitmentBook(effective: wantedFacets), settings: wanted, appliedLoosenings: [])
        }
        let rule = old[SettingsFacet.loosen.id].flatMap(LoosenRule.init(rawValue:)) ?? .nextDay
        var recent: [String: RecentTightening] = [:]
        for tightening in tightenings where tightening.at <= now && now.timeIntervalSince(tightening.at) <= CommitmentSettings.typoWindow {
            recent[tightening.facet] = tightening
        }
        var result: [String: String] = [:]
        var next = CommitmentBook()
        var applied: [String] = []
        for id in Set(old.keys).union(wantedFacets.keys).sorted() {
            let (was, wants) = (old[id], wantedFacets[id])
            guard was != wants, let facet = SettingsFacet(id: id) else {
                result[id] = wants
                continue
            }
            switch facet.looseness(from: was, to: wants, before: old, after: wantedFacets) {
            case .same:
                result[id] = wants
            case .tighter:
                result[id] = wants
                // The value before the first of a run of tightenings is what a typo fix may go back to.
                recent[id] = RecentTightening(facet: id, before: recent[id]?.before ?? was, at: now)
            case .looser:
                if let typo = recent[id], facet.looseness(from: typo.before, to: wants, before: old, after: wantedFacets) != .looser {
                    result[id] = wants
                    applied.append(id)
                    recent[id] = nil
                    continue
                }
                let earlier = pending.first { $0.facet == id && $0.target == wants }
                let due = earlier?.due ?? rule.due(after: now, dayBoundary: wanted.dayBoundary, zone: zone)
                if due <= now {
                    result[id] = wants
                    applied.append(id)
                } else {
                    result[id] = was
                    next.pending.append(PendingChange(facet: id, target: wants, held: was, made: earlier?.made ?? now, due: due))
                }
            }
        }
        next.tightenings = recent.values.sorted { ($0.at, $0.facet) < ($1.at, $1.facet) }
        next.effective = result
        var settings = wanted
        for (id, value) in result where wantedFacets[id] != value { settings.setFacet(id, to: value) }
        for id in wantedFacets.keys where result[id] == nil { settings.setFacet(id, to: nil) }
        return CommitmentOutcome(book: next, settings: settings, appliedLoosenings: applied)
    }
}

/// A reconciliation's result: the book to keep, the settings that hold, and the loosenings that
/// took effect in it (their time came, or they undid a tightening made moments before).
public struct CommitmentOutcome: Equatable, Sendable {
    public var book: CommitmentBook
    public var settings: Settings
    public var appliedLoosenings: [String]

    /// The pending changes this reconciliation made, where `before` had none for the same target.
    public func newlyPending(since before: CommitmentBook) -> [PendingChange] {
        book.pending.filter { change in !before.pending.contains { $0.facet == change.facet && $0.target == change.target } }
    }
}
