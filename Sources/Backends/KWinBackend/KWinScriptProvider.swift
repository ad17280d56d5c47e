import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// Focus and minimize on KWin (Plasma on Wayland) through a KWin script loaded over D-Bus: the
/// script reports every window and each activation to an object the provider exports on the
/// agent's own bus connection, so events arrive on the bus the agent polls anyway. KWin scripts
/// cannot be called, so a minimize loads a second, short script that asks which windows to
/// minimize, minimizes them and reports back; the provider then unloads it. Nothing waits.
public final class KWinScriptProvider: FocusProvider, WindowMinimizer, DesktopConnection {
    public static let objectPath = "/org/screentime/Agent/KWin"
    public static let interface = "org.screentime.Agent.KWin"
    static let focusScriptName = "screentime-focus"
    static let minimizeScriptName = "screentime-minimize"
    /// How long `currentFocus` waits for the script's first report.
    static let firstReportTimeout: Duration = .seconds(3)
    /// How long a minimize script may take from loading to its report before it is given up.
    static let minimizeTimeout: TimeInterval = 5

    public let providerName = "KWin script"
    public var onFocus: ((FocusEvent) -> Void)?
    public var needsTitle: (WindowFacts) -> Bool = { _ in false }

    /// Why the last minimize failed (KWin refused the script, or it did not report); nil once one worked.
    public private(set) var lastMinimizeError: String?
    /// Windows minimized by the last minimize script, and how many such scripts finished (tests, benchmarks).
    public private(set) var minimizedCount = 0
    public private(set) var minimizeScriptsDone = 0

    private let bus: BusConnection
    private let scripting: KWinScripting
    private let minimizeFile: String
    private var windows = KWinWindows()
    private var activeID: String?
    private var reportedOnce = false
    private var isClosed = false
    /// KWin left the bus (a restart, a crash) and took the scripts with it: the agent connects again.
    private var lost: KWinError?
    private static let kwinOwnerMatch = "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
        + "member='NameOwnerChanged',arg0='\(KWinScripting.service)'"

    /// The minimize script's state: targets wait in `pendingTargets` until the loaded script takes them.
    private enum MinimizeScript { case idle, loading, running }
    private var minimizeScript = MinimizeScript.idle
    private var pendingTargets: Set<String> = []
    /// When a loaded minimize script that has not reported is given up (unloaded, its targets dropped).
    private var minimizeGivenUpAt: Date?

    /// Exports the script's callback object on `bus`, writes the scripts into `runtimeDirectory`
    /// and loads the focus script (waiting for KWin's answer: this runs at connect).
    /// The loop's instant, for when a minimize is given up.
    private let now: () -> Date

    public init(bus: BusConnection, runtimeDirectory: String, now: @escaping () -> Date) throws {
        self.now = now
        self.bus = bus
        scripting = KWinScripting(bus: bus)
        let name = bus.uniqueName
        guard name.hasPrefix(":"), name.dropFirst().allSatisfy({ $0.isNumber || $0 == "." }) else {
            throw KWinError.unexpectedBusName(name)
        }
        try KWinShims.checkRuntimeFolder(runtimeDirectory)
        let focusFile = runtimeDirectory + "/screentime-kwin-focus.js"
        minimizeFile = runtimeDirectory + "/screentime-kwin-minimize.js"
        try Self.write(KWinScripts.focus, agent: name, to: focusFile)
        try Self.write(KWinScripts.minimize, agent: name, to: minimizeFile)
        try bus.export(path: Self.objectPath, interface: Self.interface, introspection: Self.introspection) { [weak self] member, arguments in
            try self?.handle(member, arguments) ?? []
        }
        do {
            try bus.addMatch(Self.kwinOwnerMatch)
            // Left loaded by an agent that crashed, they would keep reporting to a name now gone.
            scripting.unloadNow(name: Self.focusScriptName)
            scripting.unloadNow(name: Self.minimizeScriptName)
            try scripting.loadAndRunNow(file: focusFile, name: Self.focusScriptName)
        } catch {
            close()
            throw error
        }
        bus.onSignal(interface: "org.freedesktop.DBus", member: "NameOwnerChanged") { [weak self] message in
            guard let self, !self.isClosed, message.arguments.first?.stringValue == KWinScripting.service else { return }
            self.lost = .kwinLeft
        }
    }

    // MARK: FocusProvider

    /// The window the script reported active when it started (waits for that first report).
    public func currentFocus() throws -> WindowFacts? {
        guard try bus.dispatch(until: { reportedOnce }, timeout: Self.firstReportTimeout) else {
            throw KWinError.scriptSilent(seconds: Int(Self.firstReportTimeout.components.seconds))
        }
        return focusedFacts
    }

    public func titleRulesChanged() {
        guard reportedOnce, let facts = focusedFacts else { return }
        onFocus?(.titleChanged(facts))
    }

    private var focusedFacts: WindowFacts? {
        activeID.flatMap { windows.byID[$0] }.map(facts(of:))
    }

    /// A window's facts, with its title only where a title rule may apply.
    private func facts(of window: KWinWindows.Window) -> WindowFacts {
        let facts = window.facts(withTitle: false)
        return needsTitle(facts) ? window.facts(withTitle: true) : facts
    }

    // MARK: WindowMinimizer

    public func minimize(_ app: AppID, identify: @escaping (WindowFacts) -> AppID) throws {
        let targets = windows.ids { identify(facts(of: $0)) == app }
        guard !targets.isEmpty else { return }
        pendingTargets.formUnion(targets)
        try startMinimizeScript()
    }

    private func startMinimizeScript() throws {
        guard minimizeScript == .idle, !pendingTargets.isEmpty, !isClosed else { return }
        minimizeScript = .loading
        minimizeGivenUpAt = now().addingTimeInterval(Self.minimizeTimeout)
        do {
            try scripting.loadAndRun(file: minimizeFile, name: Self.minimizeScriptName) { [weak self] error in
                if let self, let error { self.giveUpMinimize("\(error)") }
            }
        } catch {
            minimizeScript = .idle
            minimizeGivenUpAt = nil
            throw error
        }
    }

    /// The minimize script failed or did not report: its targets are dropped (the agent minimizes
    /// again at the next focus of the app) and the script unloaded, so the next minimize can load it.
    private func giveUpMinimize(_ reason: String) {
        lastMinimizeError = reason
        pendingTargets.removeAll()
        minimizeGivenUpAt = nil
        try? scripting.unload(name: Self.minimizeScriptName) { [weak self] in
            self?.minimizeScript = .idle
            try? self?.startMinimizeScript()
        }
    }

    // MARK: The script's calls

    private func handle(_ member: String, _ arguments: [BusValue]) throws -> [BusValue] {
        switch member {
        case "WindowAdded", "WindowActivated":
            guard arguments.count == 7, let id = arguments[0].stringValue else { throw Self.badArguments(member) }
            if member == "WindowAdded" || !id.isEmpty { try record(arguments) }
            if member == "WindowActivated" { activated(id.isEmpty ? nil : id) }
        case "WindowRemoved":
            guard let id = arguments.first?.stringValue else { throw Self.badArguments(member) }
            windows.remove(id)
            if id == activeID { activated(nil) }
        case "WindowTitleChanged":
            guard arguments.count == 2, let id = arguments[0].stringValue, let caption = arguments[1].stringValue
            else { throw Self.badArguments(member) }
            guard let window = windows.setCaption(caption, of: id), id == activeID, reportedOnce else { return [] }
            if needsTitle(window.facts(withTitle: false)) { onFocus?(.titleChanged(window.facts(withTitle: true))) }
        case "TakeMinimizeTargets":
            let targets = pendingTargets.sorted()
            pendingTargets.removeAll()
            minimizeScript = .running
            return [.strings(targets)]
        case "MinimizeDone":
            minimizedCount = Int(arguments.first?.int32Value ?? 0)
            minimizeScriptsDone += 1
            lastMinimizeError = nil
            minimizeGivenUpAt = nil
            try scripting.unload(name: Self.minimizeScriptName) { [weak self] in
                self?.minimizeScript = .idle
                try? self?.startMinimizeScript()
            }
        default:
            throw BusMethodError(name: BusMethodError.unknownMethod, message: "no method \(member)")
        }
        return []
    }

    private func record(_ arguments: [BusValue]) throws {
        guard let id = arguments[0].stringValue, let resourceClass = arguments[1].stringValue,
              let resourceName = arguments[2].stringValue, let desktopFileName = arguments[3].stringValue,
              let pid = arguments[4].int32Value, let caption = arguments[5].stringValue, let isShell = arguments[6].boolValue
        else { throw Self.badArguments("a window report") }
        windows.update(id: id, resourceClass: resourceClass, resourceName: resourceName,
                       desktopFileName: desktopFileName, pid: pid, caption: caption, isShell: isShell)
    }

    private func activated(_ id: String?) {
        activeID = id
        guard reportedOnce else {
            reportedOnce = true
            return
        }
        onFocus?(.focused(focusedFacts))
    }

    private static func badArguments(_ member: String) -> BusMethodError {
        BusMethodError(name: BusMethodError.invalidArgs, message: "unexpected arguments for \(member)")
    }

    // MARK: DesktopConnection

    public var pollDescriptor: Int32 { -1 }
    public var wantsToWrite: Bool { false }
    /// True once KWin left the bus, so that the loop calls `handleReadable`, which says so.
    public var hasBufferedInput: Bool { lost != nil }
    public func handleReadable() throws {
        if let lost { throw lost }
    }
    public func nextDeadline(after now: Date) -> Date? { minimizeGivenUpAt }

    public func handleDeadline(now: Date) throws {
        if let minimizeGivenUpAt, minimizeGivenUpAt <= now {
            giveUpMinimize("the minimize script did not report within \(Int(Self.minimizeTimeout)) s")
        }
    }

    /// Unloads the scripts (without waiting for KWin) and stops answering their calls.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        if lost == nil {
            try? scripting.unload(name: Self.focusScriptName)
            if minimizeScript != .idle { try? scripting.unload(name: Self.minimizeScriptName) }
        }
        // Not waited for: close runs inside the agent's loop.
        try? bus.send(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", interface: "org.freedesktop.DBus",
                      method: "RemoveMatch", arguments: [.string(Self.kwinOwnerMatch)]) { _ in }
        bus.unexport(path: Self.objectPath)
        bus.flush()
    }

    // MARK: Files

    private static func write(_ script: String, agent: String, to path: String) throws {
        try KWinShims.writeAtomically(script.replacing(KWinScripts.agentPlaceholder, with: agent) + "\n", to: path)
    }

    static let introspection = """
      <interface name="\(interface)">
        <method name="WindowAdded">
          <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/>
          <arg type="s" direction="in"/><arg type="i" direction="in"/><arg type="s" direction="in"/><arg type="b" direction="in"/>
        </method>
        <method name="WindowActivated">
          <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="s" direction="in"/>
          <arg type="s" direction="in"/><arg type="i" direction="in"/><arg type="s" direction="in"/><arg type="b" direction="in"/>
        </method>
        <method name="WindowRemoved"><arg type="s" direction="in"/></method>
        <method name="WindowTitleChanged"><arg type="s" direction="in"/><arg type="s" direction="in"/></method>
        <method name="TakeMinimizeTargets"><arg type="as" direction="out"/></method>
        <method name="MinimizeDone"><arg type="i" direction="in"/></method>
      </interface>
    """
}
