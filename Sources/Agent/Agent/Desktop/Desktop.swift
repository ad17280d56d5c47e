import FoundationEssentials
import ScreenTimeCore

/// The providers chosen for this session, one per capability, and the connections they read.
/// The agent loop knows nothing else of the desktop.
final class Desktop {
    let focus: FocusProvider
    let windows: WindowMinimizer
    let idle: IdleProvider
    let filter: ScreenFilterProvider
    /// Each provider's connection once, in the order they were started.
    let connections: [DesktopConnection]
    /// What was chosen for each capability and why, with the candidates that did not start.
    let choices: [ProviderChoice]
    private var isClosed = false

    init(focus: FocusProvider, windows: WindowMinimizer, idle: IdleProvider, filter: ScreenFilterProvider,
         connections: [DesktopConnection], choices: [ProviderChoice]) {
        self.focus = focus
        self.windows = windows
        self.idle = idle
        self.filter = filter
        self.connections = connections
        self.choices = choices
    }

    /// Whether focus is followed at all (the dummy follows nothing).
    var followsFocus: Bool { !(focus is DummyProvider) }

    /// The screen's colours restored, every connection closed; safe to call twice.
    func close(restoringScreen: Bool = true) {
        guard !isClosed else { return }
        isClosed = true
        if restoringScreen { filter.restore() }
        for connection in connections { connection.close() }
    }

    /// The earliest time a connection wants to run without input, or now when one holds input
    /// its descriptor will not signal.
    func nextDeadline(after now: Date) -> Date? {
        var soonest: Date?
        for connection in connections {
            soonest = earliest(soonest, connection.hasBufferedInput ? now : connection.nextDeadline(after: now))
        }
        return soonest
    }
}

/// One capability's provider, as `status` and `doctor` show it.
struct ProviderChoice: Equatable {
    let capability: DesktopCapability
    let kind: DesktopProviderKind
    let providerName: String
    let reason: String
    /// Candidates tried before it, each with why it did not start (what the user can do).
    let skipped: [String]

    /// "sway IPC (SWAYSOCK is set)", then why earlier candidates were passed over.
    var summary: String {
        var text = kind == .dummy ? "none" : "\(providerName) (\(reason))"
        if !skipped.isEmpty { text += "; not used: " + skipped.joined(separator: "; ") }
        return text
    }
}
