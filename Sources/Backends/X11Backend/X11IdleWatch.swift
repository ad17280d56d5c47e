import FoundationEssentials
import ScreenTimeCore

/// Tells when the user goes idle and comes back, woken by the X server rather than by a timer
/// where the server allows it.
///
/// With the XSync extension's IDLETIME system counter (milliseconds since the last input; any
/// input resets it to 0), one alarm does it all, as in mutter: while active it fires when the
/// counter reaches the threshold; while idle it fires when the counter drops below the value it
/// had when the alarm was set, which only input does. Each alarm only wakes the watch, which then
/// reads the counter and sets the alarm for the other direction. The alarms are comparisons, so
/// input that comes while the alarm is being moved fires it at once instead of being missed.
/// MIT-SCREEN-SAVER notify events say when the server's screen saver starts and stops.
///
/// Without IDLETIME the watch falls back to reading XScreenSaver's idle time when the threshold
/// would be crossed and every `IdleCheck.returnPoll` while idle (`nextPoll(after:)`).
///
/// Transitions are dated when they really happened (see `IdleCheck`).
public final class X11IdleWatch: X11EventSubscriber {
    public enum Mechanism: Equatable, Sendable {
        /// IDLETIME alarms: nothing is read until the server sends an event.
        case syncAlarms
        /// XScreenSaverQueryInfo at computed times.
        case polling
    }

    public let mechanism: Mechanism
    /// For the log and `doctor`.
    public let backendName: String
    /// The idle threshold, in whole milliseconds (the counter's unit).
    public private(set) var threshold: TimeInterval
    /// Whether the user counted as active at the last reading.
    public var isActive: Bool { check.active }

    private let connection: X11Connection
    private let clock: () -> Date
    private var check = IdleCheck()
    private let idleCounter: SyncCounter?
    private let hasScreenSaver: Bool
    private var alarm: SyncAlarm?
    /// The server's screen saver, as its notify events last said (alarm mode).
    private var screenSaverOn = false
    /// An alarm or screen-saver event arrived since the last reading.
    private var woken = false
    /// When to read again (polling mode).
    private var nextCheck: Date?
    private var pending: [IdleTransition] = []

    /// Prefers IDLETIME alarms; `mechanism: .polling` forces the fallback. Throws
    /// `X11Error.extensionMissing` when the server offers neither IDLETIME nor MIT-SCREEN-SAVER.
    /// The first reading happens here: a user already idle gives a `.becameIdle` at the first drain.
    public init(connection: X11Connection, threshold: TimeInterval, mechanism preferred: Mechanism = .syncAlarms,
                clock: @escaping () -> Date) throws {
        self.connection = connection
        self.clock = clock
        self.threshold = Self.quantized(threshold)
        let display = connection.display
        hasScreenSaver = try display.hasScreenSaverExtension()
        let counter = preferred == .syncAlarms && connection.events.codes.syncAlarmNotify != nil
            ? try display.systemCounter(named: "IDLETIME") : nil
        idleCounter = counter
        switch (counter, hasScreenSaver) {
        case (.some, true):
            mechanism = .syncAlarms
            backendName = "XSync IDLETIME alarms, XScreenSaver events"
        case (.some, false):
            mechanism = .syncAlarms
            backendName = "XSync IDLETIME alarms (no MIT-SCREEN-SAVER: the screen saver is not seen)"
        case (nil, true):
            mechanism = .polling
            backendName = preferred == .polling ? "XScreenSaver polling"
                                                : "XScreenSaver polling (no XSync IDLETIME counter)"
        case (nil, false):
            throw X11Error.extensionMissing("SYNC (IDLETIME) or MIT-SCREEN-SAVER")
        }
        if mechanism == .syncAlarms {
            connection.events.subscribe(self)
            if hasScreenSaver {
                try display.selectScreenSaverEvents()
                screenSaverOn = try display.screenSaverInfo().isOn
            }
        }
        try read()
    }

    deinit {
        connection.events.unsubscribe(self)
        if let alarm, connection.isUsable { try? connection.display.destroyAlarm(alarm) }
    }

    /// A new threshold (settings changed): reads at once, which may give a transition.
    public func setThreshold(_ threshold: TimeInterval) throws {
        let quantized = Self.quantized(threshold)
        guard quantized != self.threshold else { return }
        self.threshold = quantized
        try read()
    }

    /// The transitions since the last call: from the server's events in alarm mode, from a
    /// reading when one is due in polling mode. Never blocks.
    public func drainEvents() throws -> [IdleTransition] {
        switch mechanism {
        case .syncAlarms:
            try connection.events.dispatchPending()
            if woken { try read() }
        case .polling:
            if let due = nextCheck, clock() >= due { try read() }
        }
        defer { pending = [] }
        return pending
    }

    /// When `drainEvents` should be called although the connection stayed quiet: at once when
    /// something waits, and the next reading in polling mode. Nil with alarms and nothing waiting.
    public func nextPoll(after now: Date) -> Date? {
        if !pending.isEmpty || woken { return now }
        return mechanism == .polling ? nextCheck : nil
    }

    /// Reads now. For polling mode, when something hints the user is back (a focus change);
    /// with alarms the server already said everything.
    public func recheck() throws {
        try read()
    }

    /// Seconds since the last input.
    public func idleSeconds() throws -> TimeInterval {
        TimeInterval(try idleMilliseconds()) / 1000
    }

    /// Whether the server's screen saver is on.
    public func screenSaverActive() throws -> Bool {
        guard hasScreenSaver else { return false }
        return mechanism == .syncAlarms ? screenSaverOn : try connection.display.screenSaverInfo().isOn
    }

    // MARK: - Private

    func received(_ event: XEventSummary) {
        switch event {
        case .syncAlarm(let fired) where fired == alarm:
            woken = true
        case .screenSaver(let on):
            screenSaverOn = on
            woken = true
        default:
            break
        }
    }

    private func idleMilliseconds() throws -> Int64 {
        if let idleCounter { return try connection.display.queryCounter(idleCounter) }
        return Int64(try connection.display.screenSaverInfo().idleMilliseconds)
    }

    /// One reading: decides, records a transition, and arms the alarm or schedules the next reading.
    private func read() throws {
        woken = false
        let now = clock()
        let idle: Int64
        let saverOn: Bool
        if mechanism == .syncAlarms {
            idle = try idleMilliseconds()
            saverOn = screenSaverOn
        } else {
            let info = try connection.display.screenSaverInfo()
            (idle, saverOn) = (Int64(info.idleMilliseconds), info.isOn)
        }
        // Whole milliseconds on both sides, so the decision agrees with the alarm's integer test
        // (an alarm that fired always reads as a change, and cannot re-fire in a loop).
        let outcome = check.evaluate(idleSeconds: TimeInterval(idle) / 1000, screenSaverActive: saverOn,
                                     threshold: threshold, now: now)
        if let transition = outcome.transition { pending.append(transition) }
        switch mechanism {
        case .syncAlarms: try arm(idleMilliseconds: idle)
        case .polling: nextCheck = outcome.nextCheck
        }
    }

    private func arm(idleMilliseconds idle: Int64) throws {
        guard let idleCounter else { return }
        let thresholdMilliseconds = Int64((threshold * 1000).rounded())
        // Active: wake when the threshold is reached. Idle: wake when the counter falls below
        // what was just read, which only input does.
        let (test, value): (SyncAlarmTest, Int64) = check.active ? (.atLeast, thresholdMilliseconds)
                                                                 : (.atMost, max(idle - 1, 0))
        if let alarm {
            try connection.display.changeAlarm(alarm, test, value)
        } else {
            alarm = try connection.display.createAlarm(on: idleCounter, test, value)
        }
    }

    /// Whole milliseconds, at least one.
    private static func quantized(_ threshold: TimeInterval) -> TimeInterval {
        max(1, (threshold * 1000).rounded(.up)) / 1000
    }
}
