import Logging
import Glibc
import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// The mode's notification policy carried out on whatever server runs: chosen when the server
/// is known, one change at a time (each waits for the last to be answered, without blocking the
/// loop), the user's own state saved before silencing and given back when the silence ends, at
/// exit, or at the next start after a kill. While silenced, a monitor counts what arrives.
public final class DoNotDisturbController {
    /// Called for each app whose notification arrived while silenced.
    public var onHeld: (String, Date) -> Void = { _, _ in }
    /// The apps whose notifications pass in Social (desktop ids: communication and the chosen
    /// social apps), asked when Social begins.
    public var socialApps: () -> [String] = { [] }
    private let environment: [String: String]
    private var connection: BusConnection?
    public private(set) var server: DoNotDisturbServer?
    private var wanted = NotificationPolicy.normal
    /// The apps passing in Social, as asked when it began.
    private var wantedSocialApps: [String] = []
    /// Our silence in place on `server` (its saved state on disk), with the apps it lets pass;
    /// nil while not silenced.
    private var applied: [String]?
    public var silenced: Bool { applied != nil }
    /// A change was sent and its answer not yet handled.
    public private(set) var isBusy = false
    /// A silence failed for the policy wanted: not tried again until the policy or server changes.
    private var gaveUp = false
    /// Bumped when the server changes: answers for an older one are ignored.
    private var generation = 0
    private var monitor: HeldNotificationMonitor?

    /// The loop's instant (the agent reads the clock once per turn).
    private let now: () -> Date

    public init(environment: [String: String], now: @escaping () -> Date) {
        self.environment = environment
        self.now = now
    }

    /// The agent's bus connection, new or again: the server is chosen once it answers.
    public func attach(_ connection: BusConnection) {
        self.connection = connection
        serverChanged(nil)
    }

    /// The notification server appeared, changed or left (nil). A state a killed agent left
    /// saved for it is given back first; then the policy is applied. Returns the chosen server's name.
    @discardableResult
    public func serverChanged(_ info: NotificationServerInfo?) -> String? {
        generation += 1
        isBusy = false
        applied = nil
        gaveUp = false
        stopMonitor()
        guard let connection, let info else { server = nil; return nil }
        let chosen = DoNotDisturbChooser.server(for: info, connection: connection, environment: environment, now: now)
        server = chosen
        if chosen is NoDoNotDisturb {
            Log.info("do-not-disturb: \(info.name) offers none screentime knows; notifications stay on in every mode")
        } else {
            Log.info("do-not-disturb: \(chosen.name) through \(chosen.mechanism)"
                     + (chosen.canPassChosenApps ? "" : "; Social leaves notifications on (no single app can pass there)"))
        }
        let saved = state(of: chosen)
        if let left = saved.read() {
            Log.info("do-not-disturb: giving back the state saved by an earlier run (\(left))")
            change { done in chosen.restore(left, done: done) } then: {
                saved.remove()
            }
        } else {
            advance()
        }
        return chosen.name
    }

    public func set(_ policy: NotificationPolicy) {
        guard policy != wanted else { return }
        wanted = policy
        wantedSocialApps = policy == .onlyCallsMessagesAndChosenApps ? socialApps().sorted() : []
        gaveUp = false
        advance()
    }

    /// What `policy` asks of `server`: nil, notifications on; else silenced but for the apps
    /// given. Social silences only where its exceptions can pass (its purpose is people).
    public static func silence(for policy: NotificationPolicy, socialApps: [String], on server: DoNotDisturbServer) -> [String]? {
        switch policy {
        case .normal: nil
        case .silenced, .heldAndSummarised: []
        case .onlyCallsMessagesAndChosenApps: server.canPassChosenApps ? socialApps : nil
        }
    }

    /// One step toward the wanted state: a silence that differs is lifted first, then the new
    /// one set.
    private func advance() {
        guard !isBusy, let server else { return }
        let saved = state(of: server)
        let desired = Self.silence(for: wanted, socialApps: wantedSocialApps, on: server)
        guard desired != applied else { return }
        if applied != nil {
            stopMonitor()
            change { done in server.restore(saved.read() ?? "", done: done) } then: { [weak self] in
                self?.applied = nil
                saved.remove()
            } failed: { [weak self] in
                // The saved state stays on disk: the next start tries again.
                self?.applied = nil
            }
        } else if let desired, !gaveUp {
            // A state saved earlier and not given back (its server did not answer) is the user's
            // own: what the server shows now may be a killed agent's silence.
            let save = { (state: String) in if saved.read() == nil { try saved.write(state) } }
            change { done in server.silence(allowing: desired, save: save, done: done) } then: { [weak self] in
                self?.applied = desired
                self?.startMonitor(passing: Set(desired))
            } failed: { [weak self] in
                self?.gaveUp = true
            }
        }
    }

    /// Runs one change; its answer (for the current server only) ends the wait and moves on.
    private func change(_ start: (@escaping (Result<Void, Error>) -> Void) -> Void, then: @escaping () -> Void,
                        failed: @escaping () -> Void = {}) {
        isBusy = true
        let started = generation
        start { [weak self] result in
            guard let self, self.generation == started else { return }
            self.isBusy = false
            switch result {
            case .success: then()
            case .failure(let error):
                Log.warning("do-not-disturb: \(error)")
                failed()
            }
            self.advance()
        }
    }

    private func state(of server: DoNotDisturbServer) -> SavedNotificationState {
        SavedNotificationState(environment: environment, server: server.name)
    }

    /// Counts what arrives but the agent's own and the apps `passing`.
    private func startMonitor(passing: Set<String>) {
        guard monitor == nil, let connection else { return }
        do {
            monitor = try HeldNotificationMonitor(address: environment["DBUS_SESSION_BUS_ADDRESS"], ownName: connection.uniqueName) {
                [weak self] app in
                guard let self, !passing.contains(app) else { return }
                self.onHeld(app, self.now())
            }
        } catch {
            Log.warning("do-not-disturb: cannot count what arrives while silenced (\(error))")
        }
    }

    private func stopMonitor() {
        monitor?.close()
        monitor = nil
    }

    // MARK: The loop

    /// The monitor's connection, for the poll set; -1 while not silenced.
    public var monitorDescriptor: Int32 { monitor?.fileDescriptor ?? -1 }

    /// A server's child process (GNOME's gsettings), for the poll set; -1 while none runs.
    public var serverDescriptor: Int32 { server?.pollDescriptor ?? -1 }

    public var nextDeadline: Date? { server?.nextDeadline }

    public func handleReadable(now: Date) {
        server?.handleReadable(now: now)
        do { try monitor?.handleReadable() } catch {
            Log.warning("do-not-disturb: the count of held notifications stopped (\(error))")
            stopMonitor()
        }
    }

    /// At exit: the user's state given back, waiting for the answer at most `timeout` (the loop
    /// has ended, nothing else waits). `advanceClock` moves the instant `now` gives on, each
    /// round of the wait, as the loop's turns did (a server waits for its state to settle).
    public func restoreAtExit(timeout: Duration = .seconds(2), advanceClock: () -> Void) {
        wanted = .normal
        advance()
        let deadline = ContinuousClock.now + timeout
        while (isBusy || silenced) && ContinuousClock.now < deadline, let connection {
            var fds = [pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)]
            if serverDescriptor >= 0 { fds.append(pollfd(fd: serverDescriptor, events: Int16(POLLIN), revents: 0)) }
            connection.flush()
            _ = poll(&fds, nfds_t(fds.count), 50)
            do { try connection.dispatchPending() } catch { break }
            advanceClock()
            server?.handleReadable(now: now())
            connection.expireOverdueReplies()
        }
        if silenced || isBusy { Log.warning("do-not-disturb: the server did not answer at exit; the next start gives the state back") }
        stopMonitor()
    }
}
