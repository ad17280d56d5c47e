import FoundationEssentials
import LocalProcess
import ScreenTimeCore
import SessionBus

/// Focus, window control and the screen filter on GNOME Shell (Wayland or X11), through the
/// project's extension (`desktop/gnome-shell/`) on the session bus: it emits FocusChanged, lists
/// and minimizes windows and grays the screen with Clutter effects, which it removes itself when
/// the agent's bus name vanishes. Rides on the agent's bus connection: nothing of its own to poll.
public final class GnomeShellProvider: FocusProvider, WindowMinimizer, ScreenFilterProvider, DesktopConnection {
    public static let busName = "org.screentime.Shell"
    static let objectPath = "/org/screentime/Shell"
    static let interface = "org.screentime.Shell"
    static let extensionUUID = "screentime@screentime.org"
    /// How long the shell takes to fade a filter in (the agent's other filters take as long).
    static let fadeMilliseconds: UInt32 = 2000

    public let providerName = "GNOME Shell extension"
    public var onFocus: ((FocusEvent) -> Void)?
    public var needsTitle: (WindowFacts) -> Bool = { _ in false }
    public let abilities = ScreenFilterAbilities(grayscale: true, warmth: true)
    public let pollDescriptor: Int32 = -1
    public var wantsToWrite: Bool { false }
    public var hasBufferedInput: Bool { false }

    private let bus: BusConnection
    private var focused: GnomeShellWindow?
    private var knownFacts: [WindowID: WindowFacts] = [:]
    private var isClosed = false
    /// The filter last asked for, until `restore`: shown again when the extension comes back.
    private var filter: ColorFilter?

    /// Connects to the extension on `bus`; throws `ProviderUnavailable` saying what the user has
    /// to do when it does not answer. Blocks for one round trip to the bus daemon.
    public init(bus: BusConnection, environment: [String: String]) throws {
        self.bus = bus
        guard try bus.nameHasOwner(Self.busName) else { throw ProviderUnavailable(Self.unavailableReason(environment: environment)) }
        try bus.addMatch("type='signal',sender='\(Self.busName)',interface='\(Self.interface)',member='FocusChanged'")
        try bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.busName)'")
        bus.onSignal(interface: Self.interface, member: "FocusChanged") { [weak self] message in
            self?.focusChanged(message.arguments)
        }
        bus.onSignal(interface: "org.freedesktop.DBus", member: "NameOwnerChanged") { [weak self] message in
            guard message.arguments.first?.stringValue == Self.busName else { return }
            self?.extensionOwnerChanged(to: message.arguments.last?.stringValue ?? "")
        }
    }

    /// Why the extension does not answer, and what to do: installed but not loaded (GNOME Shell
    /// loads new extensions at login on Wayland), or not installed.
    static func unavailableReason(environment: [String: String]) -> String {
        let installed = XDGPaths.dataDirectories(environment: environment).contains { directory in
            LocalProcess.contents(directory + "/gnome-shell/extensions/\(extensionUUID)/metadata.json", limit: 1) != nil
        }
        return installed
            ? "the GNOME Shell extension \(extensionUUID) is installed but GNOME Shell has not loaded it: log out and in once (and check `gnome-extensions info \(extensionUUID)` says ENABLED)"
            : "the GNOME Shell extension \(extensionUUID) is not installed: run ./install.sh from the screentime sources, then log out and in once"
    }

    // MARK: Focus

    public func currentFocus() throws -> WindowFacts? {
        let reply = try bus.call(destination: Self.busName, path: Self.objectPath, interface: Self.interface, method: "GetFocus")
        focused = reply.first.flatMap(GnomeShellWindow.init)
        return focused.map { facts(of: $0, includingTitle: needsTitle(facts(of: $0, includingTitle: false))) }
    }

    public func titleRulesChanged() {
        guard let focused else { return }
        if needsTitle(facts(of: focused, includingTitle: false)) { onFocus?(.titleChanged(facts(of: focused, includingTitle: true))) }
    }

    private func focusChanged(_ arguments: [BusValue]) {
        guard !isClosed else { return }
        let window = GnomeShellWindow(signal: arguments)
        let previous = focused
        focused = window
        guard let window else {
            if previous != nil { onFocus?(.focused(nil)) }
            return
        }
        let withoutTitle = facts(of: window, includingTitle: false)
        let wantsTitle = needsTitle(withoutTitle)
        if let previous, previous.id == window.id {
            // The same window again: only its title can have changed, which matters only where a
            // title rule may apply.
            if wantsTitle && previous.title != window.title { onFocus?(.titleChanged(facts(of: window, includingTitle: true))) }
            return
        }
        onFocus?(.focused(wantsTitle ? facts(of: window, includingTitle: true) : withoutTitle))
    }

    /// The extension went (disabled, as GNOME does while the screen is locked; the shell restarting
    /// on X11) or came back: no focus while it is away; when it returns, the focused window is
    /// asked again and the filter, which the extension removed, shown again.
    private func extensionOwnerChanged(to owner: String) {
        guard !isClosed else { return }
        guard !owner.isEmpty else {
            focused = nil
            onFocus?(.focused(nil))
            return
        }
        if let filter { try? sendFilter(filter, fadeMilliseconds: 0) }
        try? bus.send(destination: Self.busName, path: Self.objectPath, interface: Self.interface, method: "GetFocus",
                      timeout: .seconds(5)) { [weak self] result in
            guard case .success(let reply) = result, let self else { return }
            self.focusChanged((reply.first.flatMap { value -> [BusValue]? in
                if case .structure(let fields) = value { return fields }
                return nil
            }) ?? [])
        }
    }

    /// A window's facts, those without its title read once per window (/proc is read for them).
    private func facts(of window: GnomeShellWindow, includingTitle: Bool) -> WindowFacts {
        var facts: WindowFacts
        if let known = knownFacts[window.id] {
            facts = known
        } else {
            facts = window.facts(includingTitle: false)
            // Closed windows are never told: past this many the memory starts again.
            if knownFacts.count >= 4096 { knownFacts.removeAll() }
            knownFacts[window.id] = facts
        }
        if includingTitle { facts.title = window.title }
        return facts
    }

    // MARK: Window control

    public func minimize(_ app: AppID, identify: @escaping (WindowFacts) -> AppID) throws {
        try bus.send(destination: Self.busName, path: Self.objectPath, interface: Self.interface, method: "ListWindows",
                     timeout: .seconds(5)) { [weak self] result in
            guard case .success(let reply) = result, let self, !self.isClosed else { return }
            let windows = (reply.first?.arrayValue ?? []).compactMap(GnomeShellWindow.init)
            let ids = windows.filter { window in
                guard !window.minimized else { return false }
                let withoutTitle = self.facts(of: window, includingTitle: false)
                return identify(self.needsTitle(withoutTitle) ? self.facts(of: window, includingTitle: true) : withoutTitle) == app
            }.map(\.id)
            guard !ids.isEmpty else { return }
            try? self.sendMinimize(ids)
        }
    }

    private func sendMinimize(_ ids: [WindowID]) throws {
        try bus.send(destination: Self.busName, path: Self.objectPath, interface: Self.interface, method: "Minimize",
                     arguments: [.array(elementSignature: "t", ids.map { BusValue.uint64($0.rawValue) })], timeout: .seconds(5)) { _ in }
    }

    // MARK: Screen filter

    public func set(_ filter: ColorFilter, now: Date) throws -> Date? {
        self.filter = filter
        try sendFilter(filter, fadeMilliseconds: Self.fadeMilliseconds)
        return nil
    }

    private func sendFilter(_ filter: ColorFilter, fadeMilliseconds: UInt32) throws {
        try bus.send(destination: Self.busName, path: Self.objectPath, interface: Self.interface, method: "SetFilter",
                     arguments: [.double(filter.saturation), .double(filter.temperature), .double(filter.brightness),
                                 .uint32(fadeMilliseconds)],
                     timeout: .seconds(5)) { _ in }
    }

    public func step(now: Date) throws -> Date? { nil }

    public func restore() {
        guard !isClosed else { return }
        filter = nil
        // Sent even when this provider set nothing: `screentime display restore` clears what a
        // crashed agent left. The exit path: sent and flushed, not waited for (the extension also
        // restores when the agent's name vanishes).
        try? bus.send(destination: Self.busName, path: Self.objectPath, interface: Self.interface, method: "Restore",
                      timeout: .seconds(5)) { _ in }
        bus.flush()
    }

    // MARK: Connection

    public func handleReadable() throws {}
    public func nextDeadline(after now: Date) -> Date? { nil }
    public func handleDeadline(now: Date) throws {}

    public func close() {
        restore()
        isClosed = true
    }
}
