import FoundationEssentials
import ScreenTimeCore

/// Runs an engine on a virtual clock: scripted events at their times, and a `.tick` at every
/// deadline the engine asks for in between, recording every action with its time.
public struct EngineDriver {
    public private(set) var engine: Engine
    public private(set) var now: Date
    public private(set) var log: [(at: Date, action: EngineAction)] = []

    public init(engine: Engine, now: Date) {
        self.engine = engine
        self.now = now
    }

    /// Advances the clock to `time`, ticking at every deadline on the way.
    public mutating func advance(to time: Date) {
        while let deadline = engine.nextDeadline(), deadline <= time {
            now = max(now, deadline)
            record(engine.handle(.tick, at: now))
        }
        now = time
    }

    public mutating func advance(by seconds: TimeInterval) { advance(to: now.addingTimeInterval(seconds)) }

    public mutating func send(_ event: EngineEvent) { record(engine.handle(event, at: now)) }

    /// The other joined devices' use today, as the agent hands it over when the synced folder changes.
    public mutating func useElsewhere(_ usage: UsageElsewhere) { record(engine.useElsewhere(usage, at: now)) }

    private mutating func record(_ actions: [EngineAction]) {
        log += actions.map { (now, $0) }
    }

    /// Notifications shown for apps, with their times; a card about an app counts as the
    /// notification it falls back to.
    public var notifications: [(at: Date, app: AppID, request: NotificationRequest)] {
        log.compactMap { entry in
            switch entry.action {
            case .notify(let app, let request): return (entry.at, app, request)
            case .showCard(let card, let fallback): return card.app.map { (entry.at, $0.id, fallback) }
            default: return nil
            }
        }
    }

    /// Cards asked for, with their times.
    public var cards: [(at: Date, request: CardRequest)] {
        log.compactMap { if case .showCard(let card, _) = $0.action { return ($0.at, card) } else { return nil } }
    }

    /// Notices about the mode itself (a new mode, a break's end), with their times.
    public var modeNotices: [(at: Date, request: NotificationRequest)] {
        log.compactMap { if case .notifyMode(let request) = $0.action { return ($0.at, request) } else { return nil } }
    }

    /// Do-not-disturb asked of the notification server, with the times.
    public var doNotDisturb: [(at: Date, policy: NotificationPolicy)] {
        log.compactMap { if case .setDoNotDisturb(let policy) = $0.action { return ($0.at, policy) } else { return nil } }
    }

    /// Display filters asked for, with their times.
    public var displayFilters: [(at: Date, filter: DisplayFilterName)] {
        log.compactMap { if case .setDisplayFilter(let filter) = $0.action { return ($0.at, filter) } else { return nil } }
    }

    public var minimizes: [(at: Date, app: AppID)] {
        log.compactMap { if case .minimize(let app) = $0.action { return ($0.at, app) } else { return nil } }
    }

    /// Bypasses recorded, with their times.
    public var bypasses: [(at: Date, app: AppID, mode: String, granted: TimeInterval)] {
        log.compactMap {
            if case .recordBypass(let app, let mode, _, let granted, _) = $0.action { return ($0.at, app, mode, granted) } else { return nil }
        }
    }

    /// Intervals begun: app, title and mode.
    public var intervals: [(at: Date, app: AppID, mode: String)] {
        log.compactMap { if case .beginInterval(let app, _, let mode, _) = $0.action { return ($0.at, app, mode) } else { return nil } }
    }

    public mutating func clearLog() { log = [] }
}
