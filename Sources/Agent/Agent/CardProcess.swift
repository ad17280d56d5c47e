import ChildProcesses
import AgentControl
import Glibc
import FoundationEssentials
import ScreenTimeCore

/// The restriction card on screen: `screentime-card` (beside the agent's executable) started with
/// the request as JSON, at most one at a time (a new card replaces the old). The card answers over
/// the agent's bus interface (`CardChosen`); its standard output, in the loop's poll set, ends when
/// it exits, so the loop reaps it without waiting. A card that exits unanswered with a failure
/// (no display could be opened: status 3) hands back its notification, which stands in.
final class CardProcess {
    /// A card on screen (or answered and exiting).
    struct Shown {
        let id: String
        let app: AppID?
        /// Shown instead when the card cannot be.
        let fallback: NotificationRequest
        let child: ChildProcess
    }

    /// `SCREENTIME_CARD=off` in the agent's environment: notifications only (tests that follow the
    /// notifications, or a user who prefers them).
    static let switchVariable = "SCREENTIME_CARD"

    let executable: String
    let environment: [String: String]
    private(set) var current: Shown?
    /// Answered cards exiting by themselves, reaped when their output ends.
    private var leaving: [Shown] = []
    private var count = 0

    init(executable: String = SiblingExecutable.path(named: "screentime-card"), environment: [String: String]) {
        self.executable = executable
        self.environment = environment
    }

    /// Why no card can be shown in `environment`, nil when one can.
    static func unavailability(executable: String, environment: [String: String]) -> String? {
        if environment[switchVariable] == "off" { return "\(switchVariable)=off" }
        guard access(executable, X_OK) == 0 else { return "no screentime-card beside the agent (\(executable))" }
        let displays = [environment["DISPLAY"], environment["WAYLAND_DISPLAY"]].compactMap { $0 }.filter { !$0.isEmpty }
        return displays.isEmpty ? "no display in the environment (neither DISPLAY nor WAYLAND_DISPLAY)" : nil
    }

    var unavailability: String? { Self.unavailability(executable: executable, environment: environment) }

    /// Hands the outputs of the cards running to `body`, for the poll set (no array made: the
    /// loop asks every turn).
    func forEachDescriptor(_ body: (Int32) -> Void) {
        // Through the child alone: binding `current` would copy the whole card (its notification).
        if let descriptor = current?.child.fileDescriptor, descriptor >= 0 { body(descriptor) }
        for index in leaving.indices where leaving[index].child.fileDescriptor >= 0 { body(leaving[index].child.fileDescriptor) }
    }

    /// Starts a card for `request`, replacing the one on screen; on X11 it covers the monitor of
    /// `x11Window` (the disabled app's window), else the one under the pointer.
    func show(_ request: CardRequest, fallback: NotificationRequest, x11Window: WindowID? = nil, now: Date) throws -> Shown {
        close()
        count += 1
        let id = "card-\(getpid())-\(count)"
        let json = String(decoding: try JSONEncoder().encode(request), as: UTF8.self)
        let placement = x11Window.map { ["--x11-window", String($0.rawValue)] } ?? []
        // A card stays as long as the user wants; the deadline is never acted on.
        let child = try ChildProcess(executable, ["--id", id, "--request", json] + placement, environment: environment,
                                     timeout: 86_400, now: now, outputLimit: 1 << 16)
        let shown = Shown(id: id, app: request.app?.id, fallback: fallback, child: child)
        current = shown
        return shown
    }

    /// The card `id` answered: it is no longer the one on screen (it exits by itself). Nil when
    /// `id` is not the card on screen (replaced meanwhile).
    func answered(_ id: String) -> Shown? {
        guard let shown = current, shown.id == id else { return nil }
        current = nil
        leaving.append(shown)
        return shown
    }

    /// Ends the card on screen (when `app` is given, only if it is about `app`).
    func close(app: AppID? = nil) {
        guard let shown = current, app == nil || shown.app == app else { return }
        current = nil
        shown.child.stop()
    }

    /// Reaps the cards whose output ended; returns the card on screen if it exited unanswered
    /// with a failure, with its status (its notification is shown instead).
    func outputArrived() -> (shown: Shown, status: Int32)? {
        leaving.removeAll { Self.exitStatus($0) != nil }
        guard let shown = current, let status = Self.exitStatus(shown) else { return nil }
        current = nil
        return status == 0 ? nil : (shown, status)
    }

    /// Ends every card (the agent is exiting).
    func stopAll() {
        close()
        leaving.forEach { $0.child.stop() }
        leaving = []
    }

    /// The exit status once the card has exited (its output ended), else nil.
    private static func exitStatus(_ shown: Shown) -> Int32? {
        do { return try shown.child.readAvailable() } catch {
            shown.child.stop()
            return -1
        }
    }
}
