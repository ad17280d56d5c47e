import FoundationEssentials
import ScreenTimeCore
import X11Backend

/// Focus, window control and idle time on one X connection: EWMH focus events (or polling
/// without EWMH), `XIconifyWindow`, XSync idle alarms.
final class X11Provider: FocusProvider, WindowMinimizer, IdleProvider, DesktopConnection {
    let connection: X11Connection
    private let focus: FocusSource
    let focusReason: String
    private let windows: EWMHWindowControl
    private let idle: X11IdleWatch
    var onFocus: ((FocusEvent) -> Void)?
    /// The window last reported focused: `minimize` sends it away first.
    private var focused: WindowFacts?
    var onIdle: ((IdleTransition) -> Void)?
    var needsTitle: (WindowFacts) -> Bool = { _ in true } {
        didSet { (focus as? EWMHFocusSource)?.needsTitle = needsTitle }
    }
    let providerName = "X11"

    func describe(_ capability: DesktopCapability) -> String {
        switch capability {
        case .focus: return "X11 \(focus.backendName)"
        case .minimize: return "X11 XIconifyWindow"
        case .idle: return "X11 \(idle.backendName)"
        case .screenFilter: return providerName
        }
    }

    /// `now` is the loop's instant: the focus source's debounce and the idle watch's readings are
    /// dated by it.
    init(displayName: String?, idleThreshold: TimeInterval, now: @escaping () -> Date) throws {
        connection = try X11Connection(displayName: displayName)
        (focus, focusReason) = try X11Backend.makeFocusSource(connection: connection, burstWindow: Self.burstWindow, clock: now)
        windows = EWMHWindowControl(connection: connection)
        idle = try X11IdleWatch(connection: connection, threshold: idleThreshold, clock: now)
    }

    /// How long a switch's first change waits for the rest where the window manager passes through
    /// None (openbox raises the window, sets None, then the new window, within a millisecond):
    /// poll's whole milliseconds make it one. The switch is read in one wakeup and one round trip,
    /// where each change took its own; it reaches the agent a millisecond later.
    static let burstWindow: TimeInterval = 0.0005

    var pollDescriptor: Int32 { connection.fileDescriptor }
    let wantsToWrite = false
    var holdsInput: Bool { focus.isHoldingReads }
    /// Events Xlib read in during our own requests: polling the socket would not see them. They
    /// wait too while the focus source holds its reads.
    var hasBufferedInput: Bool { !focus.isHoldingReads && connection.hasQueuedEvents }

    func handleReadable() throws {
        connection.socketPolled()
        // Idle first: its drain reads every event, and a return from idle is dated at the real
        // last input, before the focus change it may have caused.
        try emitIdle()
        for event in try focus.drainEvents() {
            // When polling, a focus change is usually the user's hand: read the idle time now
            // rather than at the next scheduled reading, so a return is not noticed late.
            if case .focused = event, idle.mechanism == .polling, !idle.isActive {
                try idle.recheck()
                try emitIdle()
            }
            switch event {
            case .focused(let facts): focused = facts
            case .titleChanged(let facts): focused = facts
            }
            onFocus?(event)
        }
    }

    private func emitIdle() throws {
        for transition in try idle.drainEvents() { onIdle?(transition) }
    }

    func nextDeadline(after now: Date) -> Date? {
        earliest(focus.nextPoll(after: now), idle.nextPoll(after: now))
    }

    func handleDeadline(now: Date) throws { try handleReadable() }

    func currentFocus() throws -> WindowFacts? {
        focused = try focus.currentFocus()
        return focused
    }

    func titleRulesChanged() { (focus as? EWMHFocusSource)?.needsTitleChanged() }

    func setThreshold(_ threshold: TimeInterval) throws {
        try idle.setThreshold(threshold)
        try emitIdle()
    }

    /// Idle time read by polling (no IDLETIME alarms) is read again at once.
    func clockJumped() throws {
        guard idle.mechanism == .polling else { return }
        try idle.recheck()
        try emitIdle()
    }

    /// Minimizes every normal window that counts as `app`. Titles are read only where needed.
    /// The focused window goes first, without a read of the client list and its state (it is in
    /// front): the app the user just opened leaves as soon as the floor's would, the rest after.
    func minimize(_ app: AppID, identify: @escaping (WindowFacts) -> AppID) throws {
        var first: WindowID?
        if let focused, focused.role == .normal, identify(focused) == app {
            first = focused.window
            try windows.minimize(focused.window)
        }
        let candidates = try windows.clientWindows { $0.role == .normal && $0.window != first && needsTitle($0) }
        for window in candidates where window.role == .normal && window.window != first && identify(window) == app {
            if try !windows.isMinimized(window.window) { try windows.minimize(window.window) }
        }
    }

    func close() { connection.close() }
}
