import Glibc
import FoundationEssentials
import ScreenTimeCore
import SessionBus
import UsageStore
import X11Backend

/// The agent: one poll loop over the X connection, the session bus, the config file's inotify
/// watch and the signal pipe, with a timeout at the earliest deadline (countdown, limit, day end,
/// store flush; idle readings only when the X server lacks IDLETIME alarms). Events go to the
/// engine; its actions are carried out here.
public final class AgentRunner {
    public struct Options {
        public var environment: [String: String]
        /// How often the open interval is written while counting: the most a SIGKILL can lose.
        public var flushInterval: TimeInterval = 2

        public init(environment: [String: String]) { self.environment = environment }
    }

    let options: Options
    let zone = SystemTimeZone()
    let config: ConfigSource
    let store: UsageDatabase
    var resolver: AppResolver
    /// The desktop-entry folders: an app installed or changed while the agent runs is known at once.
    let desktopEntryWatch = DirectoryWatch()
    var engine: Engine { didSet { engineDeadline = nil } }
    /// `engine.nextDeadline()` as last asked, until the engine changes: the loop asks every turn,
    /// and most turns change nothing in the engine.
    private var engineDeadline: Date??
    var desktop: X11Session?
    var bus: AgentBus?
    var screen: ScreenFilter?
    /// The filter the mode asks for, applied again when the display comes back.
    var desiredFilter = DisplayFilterName.none
    let signals = SignalWatch()
    var nextReconnect: Date?
    let usage: UsageWriter
    var stopRequested: Int32?
    var statusDirty = false
    var modeDecision: ModeDecision?
    /// The sleep times last decided from (learned, default or pinned), for `status`.
    var sleepTimes: SleepTimes?
    /// The calendars' mode events, expanded by a short-lived `screentime calendar expand`.
    let calendars: CalendarRefresher
    /// Changes in the calendars' folders.
    let calendarWatch = DirectoryWatch()
    /// The longest the loop worked between two polls (monotonic clock): the most any event waited
    /// behind another. Logged at exit and shown in the status's diagnostics.
    var longestTurn = Duration.zero
    /// Suspends and clock steps, noticed each turn of the loop.
    var clockJumps = ClockJumpDetector()
    /// Input, lock, sleep and media, combined into whether the user is present.
    var activity = SessionActivity()
    /// logind on the system bus; nil without one.
    var logind: LogindWatch?
    /// The media players on the session bus, and the focused window's process to match them with.
    var media: MediaPlayerWatch?
    var focusedPID: Int32?

    public init(options: Options) throws {
        self.options = options
        let environment = options.environment
        config = ConfigSource(path: XDGPaths.configFile(environment: environment))
        let (store, movedAside) = try UsageDatabase.openForAgent(path: XDGPaths.databaseFile(environment: environment), now: Date())
        if let movedAside { Log.error("\(store.path) was damaged or unreadable: moved aside to \(movedAside) and a new one started") }
        self.store = store
        usage = UsageWriter(store: store, flushInterval: options.flushInterval, now: Date())
        if let unsaved = store.unsavedReason { Log.error("\(unsaved): usage is counted but cannot be saved") }
        let entries = DesktopEntryIndex.load(environment: environment)
        resolver = AppResolver(entries: entries)
        calendars = CalendarRefresher(environment: environment)
        let now = Date()
        let settings = config.settings
        let dayStart = settings.dayBoundary.start(of: now, in: zone)
        let dayEnd = settings.dayBoundary.end(of: now, in: zone)
        // Only continues past the limit lengthen it, each by what it granted (a mode's bypass is not one).
        var grants: [AppID: [TimeInterval]] = [:]
        for bypass in try store.bypasses(from: dayStart, to: dayEnd) where bypass.rule == .limit {
            grants[bypass.app, default: []].append(bypass.granted)
        }
        engine = Engine(settings: settings, zone: zone, now: now,
                        usageToday: try store.usageByApp(from: dayStart, to: dayEnd), grantsToday: grants,
                        knownApps: entries.reversed().map(AppInfo.init))
    }

    /// Runs until SIGTERM, SIGINT or SIGHUP; returns the exit status. Every way out, an error
    /// included, goes through `shutDown`: usage written, screen colours restored.
    public func run() throws -> Int32 {
        bus = try AgentBus(runner: self)
        bus.map { watchSessionBus($0.connection) }
        watchLogind()
        watchDesktopEntries()
        resolveMode(now: Date())
        connectDesktop(now: Date())
        Log.info("running; config \(config.path), data \(store.path)")
        do { try loop() } catch {
            shutDown(reason: "\(error)")
            throw error
        }
        shutDown(reason: "signal \(stopRequested!)")
        return 0
    }

    private func loop() throws {
        let watch = config.startWatching()
        // Reused every turn: a turn allocates nothing when the descriptors stay the same.
        var descriptors: [(fd: Int32, source: Source)] = []
        var fds: [pollfd] = []
        while stopRequested == nil {
            let now = Date()
            descriptors.removeAll(keepingCapacity: true)
            descriptors.append((signals.fileDescriptor, .signal))
            descriptors.append((watch, .config))
            if let desktop { descriptors.append((desktop.connection.fileDescriptor, .x11)) }
            if let bus { descriptors.append((bus.connection.fileDescriptor, .bus)) }
            if let logind { descriptors.append((logind.connection.fileDescriptor, .systemBus)) }
            if let screen { descriptors.append((screen.connection.fileDescriptor, .screen)) }
            descriptors.append((calendarWatch.fileDescriptor, .calendars))
            descriptors.append((desktopEntryWatch.fileDescriptor, .desktopEntries))
            if let expansion = calendars.childFileDescriptor { descriptors.append((expansion, .calendarExpansion)) }
            descriptors.removeAll { $0.fd < 0 }
            fds.removeAll(keepingCapacity: true)
            for (fd, source) in descriptors {
                // Output the bus socket did not take yet (a large reply) is written as it drains.
                let writing = source == .bus && bus?.connection.hasPendingOutput == true
                fds.append(pollfd(fd: fd, events: Int16(writing ? POLLIN | POLLOUT : POLLIN), revents: 0))
            }
            let deadline = nextDeadline(now: now)
            let timeout = deadline.map { $0.timeIntervalSince(now).pollMilliseconds } ?? -1
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            let turnStart = ContinuousClock.now
            defer { longestTurn = max(longestTurn, ContinuousClock.now - turnStart) }
            if ready < 0 && errno != EINTR { throw AgentError.poll(String(cString: strerror(errno))) }
            desktop?.connection.socketPolled()
            followClockJumps()
            if ready > 0 {
                for (index, entry) in fds.enumerated() where entry.revents != 0 { handle(descriptors[index].source) }
            }
            // Deadlines are looked at only when the earliest is due: a turn woken by an event does
            // no more than the event asks (what it makes due is found before the next poll).
            let afterwards = Date()
            if let deadline, deadline <= afterwards { handleDeadlines(now: afterwards) }
            if statusDirty {
                statusDirty = false
                bus?.statusChanged()
            }
        }
    }

    enum Source { case signal, config, x11, bus, systemBus, screen, calendars, calendarExpansion, desktopEntries }

    // MARK: - Sources

    func handle(_ source: Source) {
        let now = Date()
        switch source {
        case .signal:
            stopRequested = signals.take() ?? SIGTERM
        case .config:
            if config.handleWatchEvents() { settingsChanged(config.settings) }
        case .calendars:
            calendarWatch.drain()
            resolveMode(now: now)
        case .desktopEntries:
            desktopEntriesChanged(at: now)
        case .calendarExpansion:
            if calendars.childOutputArrived() { calendarsChanged(now: now) }
        case .x11:
            guard let desktop else { return }
            do {
                // Idle first: its drain reads every event, and a return from idle is dated at the
                // real last input, before the focus change it may have caused.
                idleChanged(try desktop.idle.drainEvents())
                for event in try desktop.focus.drainEvents() where self.desktop != nil { focusChanged(event, at: now) }
            } catch {
                desktopLost(error, at: now)
            }
        case .screen:
            do { try screen?.handleEvents() } catch {
                Log.warning("display filter: \(error)")
                screen = nil
            }
        case .bus:
            guard let bus else { return }
            do { try bus.connection.dispatchPending() } catch {
                Log.warning("lost the session bus (\(error)); reconnecting")
                self.bus = nil
                nextReconnect = now.addingTimeInterval(2)
            }
        case .systemBus:
            systemBusReadable()
        }
    }

    func focusChanged(_ event: FocusEvent, at now: Date) {
        switch event {
        case .focused(let facts):
            // When polling, a focus change is usually the user's hand: read the idle time now
            // rather than at the next scheduled reading, so a return is not noticed late.
            if let desktop, desktop.idle.mechanism == .polling, !desktop.idle.isActive {
                do {
                    try desktop.idle.recheck()
                    idleChanged(try desktop.idle.drainEvents())
                } catch {
                    return desktopLost(error, at: now)
                }
            }
            focusMoved(to: facts, at: now)
        case .titleChanged(let facts):
            apply(engine.handle(.title(facts.title), at: now))
        }
    }

    func idleChanged(_ transitions: [IdleTransition]) {
        for transition in transitions {
            sessionChanged(at: transition.date) { $0.inputActive = transition.isActive }
        }
    }

    /// New settings: the engine's limits and groups, the idle threshold, and the mode (schedules,
    /// calendars and mode settings live in the same file).
    func settingsChanged(_ settings: Settings) {
        let now = Date()
        // Which titles are read depends on both.
        let titleRulesChanged = settings.titleRules != engine.settings.titleRules
            || settings.titlePrivacy != engine.settings.titlePrivacy
        apply(engine.handle(.settings(settings), at: now))
        resolveMode(now: now)
        guard let desktop else { return }
        if titleRulesChanged { desktop.titleRulesChanged() }
        do {
            try desktop.idle.setThreshold(settings.idleThreshold)
            idleChanged(try desktop.idle.drainEvents())
        } catch {
            desktopLost(error, at: now)
        }
    }

    /// Whether a window's title matters: a title rule may apply to its app (a built-in site rule
    /// to any browser), or every title is stored. Other titles are neither read nor followed (each
    /// costs X round trips and wakeups) and count as empty.
    func needsTitle(_ facts: WindowFacts) -> Bool {
        engine.settings.titlePrivacy == .all || engine.settings.titleRules.mayApply(to: resolver.app(for: facts))
    }

    func focusedApp(_ facts: WindowFacts?) -> FocusedApp? {
        guard let facts, facts.role == .normal else { return nil }
        return FocusedApp(app: resolver.identify(facts), window: facts.window, title: facts.title)
    }

    // MARK: - Deadlines

    func nextDeadline(now: Date) -> Date? {
        var earliest: Date?
        func consider(_ date: Date?) {
            if let date, earliest.map({ date < $0 }) ?? true { earliest = date }
        }
        consider(engineNextDeadline())
        consider(nextReconnect)
        consider(screen?.nextStep)
        consider(modeDecision?.next?.at)
        consider(calendars.nextRefresh)
        consider(calendars.childDeadline)
        consider(usage.nextFlush)
        consider(bus?.connection.nextReplyDeadline(now: now))
        if bus?.connection.hasQueuedIncoming == true || logind?.connection.hasQueuedIncoming == true { consider(now) }
        if let desktop {
            consider(desktop.focus.nextPoll(after: now))
            consider(desktop.idle.nextPoll(after: now))
            if desktop.connection.hasQueuedEvents { consider(now) }
        }
        return earliest
    }

    /// The engine's next deadline, asked of it only when it changed since the last time.
    func engineNextDeadline() -> Date? {
        if let known = engineDeadline { return known }
        let deadline = engine.nextDeadline()
        engineDeadline = .some(deadline)
        return deadline
    }

    func handleDeadlines(now: Date) {
        func due(_ date: Date?) -> Bool { date.map { $0 <= now } ?? false }
        if due(modeDecision?.next?.at) || due(calendars.nextRefresh) { resolveMode(now: now) }
        if calendars.stopOverdueChild(now: now) { calendarsChanged(now: now) }
        if due(engineNextDeadline()) { apply(engine.handle(.tick, at: now)) }
        if let desktop, due(desktop.focus.nextPoll(after: now)) || due(desktop.idle.nextPoll(after: now))
            || desktop.connection.hasQueuedEvents {
            handle(.x11)
        }
        // A reply read during a blocking call (AddMatch at connect) would otherwise wait for the next message.
        if bus?.connection.hasQueuedIncoming == true { handle(.bus) }
        if logind?.connection.hasQueuedIncoming == true { handle(.systemBus) }
        if due(usage.nextFlush) { flushUsage(now: now) }
        if due(bus?.connection.nextReplyDeadline(now: now)) { bus?.connection.expireOverdueReplies() }
        if due(nextReconnect) { reconnect(now: now) }
        if due(screen?.nextStep) {
            do { try screen?.step(now: now) } catch { Log.warning("display filter: \(error)") }
        }
    }

    // MARK: - Connections

    func connectDesktop(now: Date) {
        do {
            let session = try X11Session(displayName: options.environment["DISPLAY"],
                                         idleThreshold: engine.settings.idleThreshold) { [weak self] facts in
                self?.needsTitle(facts) ?? true
            }
            desktop = session
            Log.info("focus: \(session.focusReason); idle: \(session.idle.backendName)")
            startScreenFilter()
            // A new watch starts from "active" and reports a user already away as a transition.
            sessionChanged(at: now) { $0.inputActive = true }
            idleChanged(try session.idle.drainEvents())
            focusMoved(to: try session.focus.currentFocus(), at: now)
        } catch {
            Log.warning("no X display (\(error)); retrying")
            desktop = nil
            nextReconnect = now.addingTimeInterval(2)
        }
    }

    func startScreenFilter() {
        let runtime = XDGPaths.runtimeDirectory(environment: options.environment, uid: getuid())
        do {
            let filter = try ScreenFilter(displayName: options.environment["DISPLAY"], runtimeDirectory: runtime)
            screen = filter
            if desiredFilter != .none { try filter.set(desiredFilter.colorFilter, now: Date()) }
            Log.info("display: " + filter.outputs.map(\.description).joined(separator: "; "))
        } catch {
            Log.warning("no display filter (\(error))")
        }
    }

    func desktopLost(_ error: Error, at now: Date) {
        screen?.controller.close()
        screen?.connection.close()
        screen = nil
        Log.warning("lost the X display (\(error)); time stops counting until it is back")
        desktop?.connection.close()
        desktop = nil
        apply(engine.handle(.focus(nil), at: now))
        nextReconnect = now.addingTimeInterval(2)
    }

    func reconnect(now: Date) {
        nextReconnect = nil
        if desktop == nil { connectDesktop(now: now) }
        if bus == nil {
            do {
                bus = try AgentBus(runner: self)
                bus.map { watchSessionBus($0.connection) }
            } catch {
                Log.warning("no session bus yet (\(error))")
                nextReconnect = now.addingTimeInterval(2)
            }
        }
    }

    // MARK: - Actions

    func apply(_ actions: [EngineAction]) {
        for action in actions {
            do { try carryOut(action) } catch { Log.warning("\(action): \(error)") }
        }
    }

    func carryOut(_ action: EngineAction) throws {
        switch action {
        case .notify(let app, let request):
            try bus?.notify(app, request)
        case .closeNotification(let app):
            try bus?.closeNotification(app)
        case .minimize(let app):
            let rules = engine.settings.titleRules
            try desktop?.minimize(app) { [resolver] facts in rules.app(for: resolver.app(for: facts), title: facts.title).id }
        case .beginInterval(let app, let title, let mode, let at):
            usage.begin(app: app, title: title, mode: mode, at: at)
        case .endInterval(let at):
            usage.end(at: at)
        case .recordBypass(let app, let mode, let rule, let granted, let at):
            usage.record(.bypass(app: app, mode: mode, rule: rule, at: at, granted: granted), at: at)
        case .recordLimitHit(let app, let used, let at):
            usage.record(.limitHit(app: app, at: at, used: used), at: at)
        case .setDisplayFilter(let name):
            apply(displayFilter: name)
        case .notifyMode(let request):
            try bus?.notify(AppID("screentime"), request)
        case .recordModeChange(let mode, let reason, let at):
            usage.record(.modeChange(mode: mode.rawValue, reason: reason.key, at: at), at: at)
        case .statusChanged:
            // Sent once per turn of the loop, however many changes the turn made.
            statusDirty = true
        }
    }

    func flushUsage(now: Date) {
        let failing = usage.problem != nil
        do { try usage.flush(now: now) } catch {
            if !failing { Log.warning("cannot write usage (kept in memory, retried every \(Int(usage.flushInterval)) s): \(error)") }
        }
        // `status` says at once that saving started or stopped failing.
        if failing != (usage.problem != nil) { statusDirty = true }
    }

    func shutDown(reason: String) {
        let now = Date()
        apply(engine.handle(.focus(nil), at: now))
        do { try usage.close(now: now) } catch { Log.error("the last usage could not be saved at exit: \(error)") }
        screen?.restoreAndClose()
        bus?.close()
        desktop?.connection.close()
        Log.info("stopped (\(reason)); longest loop turn \(Self.milliseconds(longestTurn)) ms")
    }

    public func status(at now: Date) -> StatusSnapshot {
        var backends: [String: String] = [:]
        if let desktop { backends["focus"] = desktop.focus.backendName; backends["idle"] = desktop.idle.backendName }
        if let server = bus?.notifier.serverInfo { backends["notifications"] = "\(server.name) \(server.version)" }
        backends["logind"] = logind.map { $0.sessionPath == nil ? "sleep" : "sleep, lock" } ?? "none"
        var status = engine.status(at: now, zone: zone, configProblem: config.problem, backends: backends)
        status.sleepTimes = sleepTimes?.summary
        status.diagnostics = ["longestLoopTurnMs": Self.milliseconds(longestTurn)]
        status.savingProblem = usage.problem.map { "since \(LocalTimeText.iso8601($0.since, in: zone)): \($0.reason)" }
        return status
    }

    static func milliseconds(_ duration: Duration) -> Double { (duration.timeInterval * 1000).rounded() }

    /// Handles an engine event coming from outside (the D-Bus interface, notification actions).
    /// Hands `event` to the engine and carries out its actions; returns them (what a continue granted).
    @discardableResult
    func send(_ event: EngineEvent) -> [EngineAction] {
        let actions = engine.handle(event, at: Date())
        apply(actions)
        return actions
    }

    /// The mode's colours: fades the screen to them (restored on every exit).
    func apply(displayFilter name: DisplayFilterName) {
        desiredFilter = name
        do { try screen?.set(name.colorFilter, now: Date()) } catch { Log.warning("display filter: \(error)") }
    }

    /// The mode state (manual switch, Cheat Day bookings, sleep actions, breaks) or the calendars
    /// changed: decide the mode again. (Wired to the mode resolver by the modes work.)
    func modesChanged() { resolveMode(now: Date()) }

    /// Decides the mode now and tells the engine when it changed; the decision says when to ask again.
    func resolveMode(now: Date) {
        let settings = engine.settings.modes
        calendarWatch.watch(Set(settings.calendarPaths.flatMap(AgentRunner.directoriesToWatch)))
        if calendars.refreshIfDue(paths: settings.calendarPaths, now: now) { logCalendarProblems() }
        let inputs: ModeInputs
        do {
            inputs = try ModeInputsSource.load(store: store, settings: settings, calendar: calendars.intervals, now: now, zone: zone)
        } catch {
            Log.warning("cannot read the mode state: \(error)")
            return
        }
        sleepTimes = inputs.sleepTimes
        let decision = ModeResolver(inputs: inputs, zone: zone).resolve(at: now)
        guard decision != modeDecision else { return }
        if decision.mode != modeDecision?.mode {
            Log.info("mode: \(decision.mode.displayName) (\(decision.reason.explanation(zone: zone)))")
        }
        modeDecision = decision
        apply(engine.handle(.mode(decision), at: now))
    }

    /// An expansion ended (or failed): decide the mode with its intervals.
    func calendarsChanged(now: Date) {
        logCalendarProblems()
        resolveMode(now: now)
    }

    func logCalendarProblems() {
        if !calendars.problems.isEmpty { Log.warning("calendars: " + calendars.problems.joined(separator: "; ")) }
    }

    func reloadConfig() {
        if config.reload() { settingsChanged(config.settings) }
    }

    /// A calendar file's folder, or a calendar folder and its collections one level down (as
    /// vdirsyncer lays them out).
    static func directoriesToWatch(_ path: String) -> [String] {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory else {
            return [String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])]
        }
        let children = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        return [path] + children.map { path + "/" + $0 }.filter {
            var childIsDirectory = false
            return FileManager.default.fileExists(atPath: $0, isDirectory: &childIsDirectory) && childIsDirectory
        }
    }
}

public enum AgentError: Error, CustomStringConvertible {
    case poll(String)
    case alreadyRunning

    public var description: String {
        switch self {
        case .poll(let reason): return "the event loop failed: \(reason)"
        case .alreadyRunning: return "another screentime agent is already running in this session (it owns \(AgentInterface.busName))"
        }
    }
}
