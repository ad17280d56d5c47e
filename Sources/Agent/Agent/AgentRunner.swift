import AgentControl
import DoNotDisturb
import Logging
import Glibc
import FoundationEssentials
import LocalSystem
import ScreenTimeCore
import SessionBus
import UsageStore

/// The agent: one poll loop over the desktop's connections (whatever providers the session
/// offers), the session bus, the config file's inotify watch and the signal pipe, with a timeout
/// at the earliest deadline (countdown, limit, day end, store flush, a provider's own). Events go
/// to the engine; its actions are carried out here.
public final class AgentRunner {
    public struct Options {
        public var environment: [String: String]
        /// How often the open interval is written while counting: the most a SIGKILL can lose.
        /// Each write is a transaction, and at every focus switch there is something to write:
        /// so 10 s, not less. `SCREENTIME_FLUSH_SECONDS` (1 to 60) changes it, for the tests that
        /// read the store behind a running agent.
        public var flushInterval: TimeInterval = 10
        /// The agent's only source of time, read once per turn of the loop.
        public var clock: AgentClock = SystemClock()
        /// The desktop's providers, when a test scripts them (else those the session offers).
        var desktop: ((ProviderContext) -> Desktop)?

        public init(environment: [String: String]) {
            self.environment = environment
            if let seconds = environment[Self.flushVariable].flatMap(TimeInterval.init), (1...60).contains(seconds) {
                flushInterval = seconds
            }
        }

        public static let flushVariable = "SCREENTIME_FLUSH_SECONDS"
    }

    let options: Options
    let clock: AgentClock
    /// The instant of the loop's current turn (read once per turn): the time for everything the
    /// turn does, callbacks and bus calls included.
    let turn: TurnInstant
    var now: Date { turn.now }
    let zone = SystemTimeZone()
    let config: ConfigSource
    /// What holds of the config: loosening waits (AgentRunner+Commitments).
    let commitments: CommitmentFile
    var nextCommitmentDue: Date?
    /// This run in the store, and what the last one missed (AgentRunLog).
    let runLog = AgentRunLog()
    let store: UsageDatabase
    var resolver: AppResolver
    /// The installed desktop entries as last read (at start, and when their folders change).
    var desktopEntries: [DesktopEntry]
    /// The agent's one inotify instance, for every folder it watches.
    let fileWatches = FileWatches()
    /// The desktop-entry folders: an app installed or changed while the agent runs is known at once.
    lazy var desktopEntryWatch = fileWatches.watcher { [unowned self] now in
        desktopEntriesChanged(at: now)
        // Reading every desktop entry is rare work: its code need not stay resident.
        CodePages.release()
    }
    var engine: Engine
    /// A Cheat Day was booked or cancelled here (in the store, not the config): `SyncSource` shares it at once.
    var cheatDaysChangedHere = false
    /// The providers chosen for this session (focus, minimize, idle, screen filter).
    var desktop: Desktop?
    /// When the screen filter's fade wants its next step.
    var nextFilterStep: Date?
    /// Since when nothing has followed the focus (no display yet, a shell extension not loaded):
    /// the desktop is looked for every 2 s for a minute, then every minute.
    var searchingDesktopSince: Date?
    /// The providers' choices as last logged: a search that finds the same again says nothing.
    var loggedChoices: [ProviderChoice] = []
    var bus: AgentBus?
    /// The filter the mode asks for, applied again when the display comes back.
    var desiredFilter = DisplayFilterName.none
    let signals: SignalWatch
    var nextReconnect: Date?
    /// Since when the session bus has been gone, while it is.
    var busLostSince: Date?
    let usage: UsageWriter
    var stopRequested: StopReason?
    var statusDirty = false
    var modeDecision: ModeDecision?
    /// The sleep times last decided from (learned, default or pinned), for `status`.
    var sleepTimes: SleepTimes?
    /// The calendars' mode events, expanded by a short-lived `screentime calendar expand`.
    let calendars: CalendarRefresher
    /// Changes in the calendars' folders.
    lazy var calendarWatch = fileWatches.watcher { [unowned self] now in calendars.foldersChanged(now: now) }
    /// The longest the loop worked between two polls (monotonic clock): the most any event waited
    /// behind another. Logged at exit and shown in the status's diagnostics.
    var longestTurn: TimeInterval = 0
    /// Suspends and clock steps, noticed each turn of the loop.
    var clockJumps = ClockJumpDetector()
    /// Input, lock, sleep and media, combined into whether the user is present.
    var activity = SessionActivity()
    /// logind on the system bus; nil without one.
    var logind: LogindWatch?
    /// The media players on the session bus, and the focused window's process to match them with.
    var media: MediaPlayerWatch?
    var focusedPID: Int32?
    /// The restriction card on screen, a `screentime-card` process beside the loop.
    let cards: CardProcess
    let tabCards: TabCards
    /// Why cards could not be shown, each logged once.
    var cardProblemsLogged: Set<String> = []
    /// The mode's do-not-disturb on the notification server, and the count of what it held.
    let doNotDisturb: DoNotDisturbController
    /// The summary of the week before, at the first activity of a week.
    let weeklySummary: WeeklySummaryNotice
    /// What the browsers' extensions report: the site of the focused tab, per browser process.
    let browsers = BrowserReports()
    /// What the desktop reported (focus, title and idle changes), counted: a turn in which the
    /// count did not move changed nothing but the desktop's own state.
    var desktopReports = 0
    /// The loop over every source, from `start`.
    private var eventLoop: EventLoop?

    public init(options: Options) throws {
        self.options = options
        clock = options.clock
        let now = options.clock.read().wall
        let turn = TurnInstant(now)
        self.turn = turn
        signals = try SignalWatch()
        let environment = options.environment
        config = ConfigSource(path: XDGPaths.configFile(environment: environment))
        commitments = CommitmentFile(environment: environment)
        let (store, movedAside) = try UsageDatabase.openForAgent(path: XDGPaths.databaseFile(environment: environment), now: now)
        if let movedAside { Log.error("\(store.path) was damaged or unreadable: moved aside to \(movedAside) and a new one started") }
        self.store = store
        usage = UsageWriter(store: store, flushInterval: options.flushInterval, now: now)
        if let unsaved = store.unsavedReason { Log.error("\(unsaved): usage is counted but cannot be saved") }
        let entries = DesktopEntryIndex.load(environment: environment)
        desktopEntries = entries
        resolver = AppResolver(entries: entries)
        calendars = CalendarRefresher(environment: environment)
        cards = CardProcess(environment: environment)
        tabCards = TabCards(executable: cards.executable, environment: environment)
        doNotDisturb = DoNotDisturbController(environment: environment, now: { [turn] in turn.now })
        weeklySummary = WeeklySummaryNotice(environment: environment)
        let (_, kept) = commitments.reconcile(wanted: config.settings, now: now, zone: zone)
        nextCommitmentDue = kept.book.nextDue
        let settings = kept.settings
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
        doNotDisturb.onHeld = { [unowned self] app, at in heldNotificationArrived(app, at: at) }
        doNotDisturb.socialApps = { [unowned self] in socialApps() }
    }

    /// Runs until SIGTERM, SIGINT or SIGHUP; returns the exit status. Every way out, an error
    /// included, goes through `shutDown`: usage written, screen colours restored.
    public func run() throws -> Int32 {
        try start()
        do {
            while stopRequested == nil { try turn() }
        } catch {
            shutDown(reason: "\(error)")
            throw error
        }
        shutDown(reason: stopRequested!.description)
        return 0
    }

    /// Connects to the session (its bus, logind, the desktop) and decides the mode: the agent as
    /// it is before its first turn.
    func start() throws {
        bus = try AgentBus(runner: self)
        bus.map { watchSessionBus($0.connection) }
        watchLogind()
        config.startWatching(through: fileWatches) { [unowned self] now in
            wantedSettingsChanged(at: now)
            // Parsing and applying a config is rare work: its code need not stay resident.
            CodePages.release()
        }
        watchDesktopEntries()
        beginTurn()
        runLog.begin(store: store, environment: options.environment, now: now) { [logind] answer in logind?.askSessionStart(answer) ?? false }
        resolveMode(now: now)
        connectDesktop(now: now)
        eventLoop = EventLoop(sources: makeSources())
        Log.info("running; config \(config.path), data \(store.path)")
        CodePages.release()
    }

    /// Every source of the loop's turns, in the order a turn serves them: a signal first, the
    /// engine's deadlines before the desktop's events of the same turn, the store's flush after both.
    func makeSources() -> [LoopSource] {
        [SignalSource(self), FileWatchSource(self), ModeSource(self), EngineTimerSource(self), DesktopSource(self),
         SessionBusSource(self), SystemBusSource(self), CardSource(self),
         WeeklySummarySource(self), TabCardSource(self), DoNotDisturbSource(self), UsageFlushSource(self), ReconnectSource(self), CommitmentSource(self), AgentAliveSource(self),
         FilterFadeSource(self), SyncSource(self), CodePagesSource()]
    }

    /// One turn of the loop: waits for the sources (at most `maximumWait` ms when given), reads
    /// the clocks once and serves every source due. The status signal goes out once per turn,
    /// however many changes the turn made.
    func turn(waitingAtMost maximumWait: Int32? = nil) throws {
        guard let eventLoop else { return }
        // Set once poll returns: the turn is measured from there, not from before the wait.
        var turnStart: MonotonicInstant?
        try eventLoop.turn(now: now, maximumWait: maximumWait) {
            turnStart = .now()
            return beginTurn()
        }
        if statusDirty {
            statusDirty = false
            bus?.statusChanged()
        }
        if let turnStart { longestTurn = max(longestTurn, MonotonicInstant.now().seconds(since: turnStart)) }
    }

    /// Reads the clocks for this turn: the instant every part of the agent works with until the
    /// next turn, after following a jump of the wall clock (a suspend, a step).
    @discardableResult
    func beginTurn() -> Date {
        let reading = clock.read()
        turn.move(to: reading.wall)
        followClockJumps(wall: reading.wall, monotonic: reading.monotonic)
        return now
    }

    func focusChanged(_ event: FocusEvent, at now: Date) {
        desktopReports &+= 1
        switch event {
        case .focused(let facts): focusMoved(to: facts, at: now)
        case .titleChanged(let facts):
            if browsers.focusedWindow?.window == facts.window { browsers.focusedWindow = facts }
            apply(engine.handle(.title(facts.title), at: now))
        }
    }

    func idleChanged(_ transition: IdleTransition) {
        desktopReports &+= 1
        sessionChanged(at: transition.date) { $0.inputActive = transition.isActive }
    }

    /// New settings: the engine's limits and groups, the idle threshold, and the mode (schedules,
    /// calendars and mode settings live in the same file).
    func settingsChanged(_ settings: Settings, at now: Date) {
        // Which titles are read depends on both.
        let titleRulesChanged = settings.titleRules != engine.settings.titleRules
            || settings.titlePrivacy != engine.settings.titlePrivacy
        apply(engine.handle(.settings(settings), at: now))
        resolveMode(now: now)
        guard let desktop else { return }
        if titleRulesChanged { desktop.focus.titleRulesChanged() }
        do { try desktop.idle.setThreshold(settings.idleThreshold) } catch {
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
        return FocusedApp(app: browserSite(facts, identifiedAs: resolver.identify(facts)), window: facts.window, title: facts.title)
    }

    // MARK: - Connections

    /// Chooses and starts the providers for this session, follows their events and reads the
    /// focus and idle state they start with. While nothing follows focus (no display yet, a shell
    /// extension not loaded), looks again later, less and less often.
    func connectDesktop(now: Date) {
        let context = ProviderContext(environment: options.environment, bus: bus?.connection,
                                      runtimeDirectory: XDGPaths.runtimeDirectory(environment: options.environment, uid: getuid()),
                                      idleThreshold: engine.settings.idleThreshold, now: { [turn] in turn.now })
        let desktop = options.desktop?(context)
            ?? DesktopConnector.connect(facts: DesktopConnector.probe(environment: options.environment, bus: bus?.connection), context: context)
        self.desktop = desktop
        if desktop.choices != loggedChoices {
            for choice in desktop.choices { Log.info("\(choice.capability.rawValue): \(choice.summary)") }
            loggedChoices = desktop.choices
        }
        desktop.focus.needsTitle = { [unowned self] facts in needsTitle(facts) }
        desktop.focus.onFocus = { [unowned self] event in focusChanged(event, at: self.now) }
        desktop.idle.onIdle = { [unowned self] transition in idleChanged(transition) }
        do {
            if desiredFilter != .none { nextFilterStep = try desktop.filter.set(desiredFilter.colorFilter, now: now) }
        } catch {
            Log.warning("display filter: \(error)")
        }
        do {
            // A new watch starts from "active" and reports a user already away as a transition.
            sessionChanged(at: now) { $0.inputActive = true }
            try desktop.idle.setThreshold(engine.settings.idleThreshold)
            focusMoved(to: try desktop.focus.currentFocus(), at: now)
        } catch {
            return desktopLost(error, at: now)
        }
        if desktop.followsFocus {
            searchingDesktopSince = nil
        } else {
            let since = searchingDesktopSince ?? now
            if searchingDesktopSince == nil {
                Log.warning("nothing follows the focus: time is not counted until a desktop is found (see `screentime doctor`)")
            }
            searchingDesktopSince = since
            scheduleReconnect(now.addingTimeInterval(now.timeIntervalSince(since) < 60 ? 2 : 60))
        }
    }

    func scheduleReconnect(_ date: Date) {
        if nextReconnect.map({ date < $0 }) ?? true { nextReconnect = date }
    }

    /// A connection to the desktop failed: every provider is dropped (the screen restored where
    /// it still can be), time stops counting, and the desktop is looked for again in 2 s.
    func desktopLost(_ error: Error, at now: Date) {
        guard let lost = desktop else { return }
        Log.warning("lost the desktop (\(error)); time stops counting until it is back")
        desktop = nil
        nextFilterStep = nil
        lost.close()
        apply(engine.handle(.focus(nil), at: now))
        searchingDesktopSince = now
        scheduleReconnect(now.addingTimeInterval(2))
    }

    /// The session bus went away: looked for again in 2 s, for a minute.
    func sessionBusLost(_ error: Error, at now: Date) {
        Log.warning("lost the session bus (\(error)); reconnecting")
        bus = nil
        busLostSince = now
        // Providers speaking D-Bus (shell extensions, KWin scripts) went with it.
        if desktop?.connections.contains(where: { $0.pollDescriptor < 0 }) == true { desktopLost(error, at: now) }
        scheduleReconnect(now.addingTimeInterval(2))
    }

    /// How long the session bus may be gone before the session counts as over. A bus restarted
    /// (systemd's user bus) is back within seconds; one gone for good went with its session (a
    /// logout), and the agent leaves as it does when it starts without one, rather than stay and
    /// join whatever display and bus a later session brings under the same names.
    static let sessionEndsAfterBusGone: TimeInterval = 60

    func reconnect(now: Date) {
        nextReconnect = nil
        if bus == nil {
            do {
                bus = try AgentBus(runner: self)
                bus.map { watchSessionBus($0.connection) }
                busLostSince = nil
            } catch {
                if let since = busLostSince, now.timeIntervalSince(since) >= Self.sessionEndsAfterBusGone {
                    Log.warning("the session bus has been gone for \(Int(Self.sessionEndsAfterBusGone)) s (\(error)): the session is over; leaving")
                    stopRequested = .sessionEnded
                    return
                }
                Log.warning("no session bus yet (\(error))")
                scheduleReconnect(now.addingTimeInterval(2))
            }
        }
        if desktop?.followsFocus != true {
            desktop?.close()
            desktop = nil
            connectDesktop(now: now)
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
            // Continued some other way (the CLI, the notification): its card goes too.
            cards.close(app: app)
            allowInTab(app)
            try bus?.closeNotification(app)
        case .showCard(let request, let fallback):
            // A site is restricted in its tab, where the user is, not on a card over the desktop.
            if let app = request.app, restrictsInTab(app.id) { return restrictInTab(request) }
            try showCard(request, fallback: fallback)
        case .setDoNotDisturb(let policy):
            setDoNotDisturb(policy)
        case .minimize(let app):
            // The browser window stays, with the user's other tabs: the site's tab gets its card.
            if restrictsInTab(app) { return }
            let rules = engine.settings.titleRules
            try desktop?.windows.minimize(app) { [resolver] facts in rules.app(for: resolver.app(for: facts), title: facts.title).id }
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
            try bus?.notify(AgentBus.modeNotice, request)
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
        let now = beginTurn()
        apply(engine.handle(.focus(nil), at: now))
        do { try usage.close(now: now) } catch { Log.error("the last usage could not be saved at exit: \(error)") }
        runLog.end(store: store, now: now, reason: reason)
        cards.stopAll()
        desktop?.close()
        doNotDisturb.restoreAtExit { [clock, turn] in turn.move(to: clock.read().wall) }
        bus?.close()
        Log.info("stopped (\(reason)); longest loop turn \(Self.milliseconds(longestTurn)) ms")
    }

    public func status(at now: Date) -> StatusSnapshot {
        var backends: [String: String] = [:]
        for choice in desktop?.choices ?? [] { backends[choice.capability.rawValue] = choice.summary }
        if let server = bus?.notifier.serverInfo { backends["notifications"] = "\(server.name) \(server.version)" }
        backends["logind"] = logind.map { $0.sessionPath == nil ? "sleep" : "sleep, lock" } ?? "none"
        var status = engine.status(at: now, zone: zone, configProblem: config.problem, backends: backends)
        status.sleepTimes = sleepTimes?.summary
        status.diagnostics = ["longestLoopTurnMs": Self.milliseconds(longestTurn), "calendarExpansions": Double(calendars.expansionsStarted)]
        status.savingProblem = usage.problem.map { "since \(LocalTimeText.iso8601($0.since, in: zone)): \($0.reason)" }
        return status
    }

    static func milliseconds(_ seconds: TimeInterval) -> Double { (seconds * 1000).rounded() }

    /// Handles an engine event coming from outside (the D-Bus interface, notification actions).
    /// Hands `event` to the engine and carries out its actions; returns them (what a continue granted).
    @discardableResult
    func send(_ event: EngineEvent) -> [EngineAction] {
        let actions = engine.handle(event, at: now)
        apply(actions)
        return actions
    }

    /// The mode's colours: fades the screen to them (restored on every exit).
    func apply(displayFilter name: DisplayFilterName) {
        desiredFilter = name
        guard let desktop else { return }
        do { nextFilterStep = try desktop.filter.set(name.colorFilter, now: now) } catch { Log.warning("display filter: \(error)") }
    }

    /// The mode state (manual switch, Cheat Day bookings, sleep actions, breaks) or the calendars
    /// changed: decide the mode again. (Wired to the mode resolver by the modes work.)
    func modesChanged() { resolveMode(now: now) }

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

    @discardableResult
    func reloadConfig() -> [PendingChange] {
        config.reload() ? wantedSettingsChanged(at: now) : []
    }

    /// The folders holding a calendar path's files (`CalendarTree`); the folder a missing path
    /// would be made in, to see it come.
    static func directoriesToWatch(_ path: String) -> [String] {
        (try? CalendarTree(path: path).folders) ?? [CalendarTree.folder(of: path)]
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
