import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// The host's side of the session bus: it tells the agent what the browser shows and hears the
/// agent's restrictions. The agent may start later or restart at any time: the host follows its
/// name, and tells a new agent the browser's name and the tab in front, so nothing is lost or told
/// twice. Without a bus at all it looks for one every 2 s.
final class AgentLink {
    let browserPID: UInt32
    private let address: String?
    private(set) var connection: BusConnection?
    /// Whether the agent owns its name now.
    private(set) var agentPresent = false
    /// When to look for the bus again.
    private(set) var reconnectAt: ContinuousClock.Instant?
    /// What a new agent is told: the extension's hello and the tab last in front.
    private var browserName: String?
    private var lastTab: BrowserTab?

    var onRestrict: (_ site: String, _ card: String) -> Void = { _, _ in }
    var onAllow: (_ site: String) -> Void = { _ in }
    var onAgent: (_ present: Bool) -> Void = { _ in }

    init(environment: [String: String], browserPID: UInt32) {
        self.browserPID = browserPID
        address = environment["DBUS_SESSION_BUS_ADDRESS"]
    }

    func connect() {
        reconnectAt = nil
        do {
            let bus = try BusConnection(address: address)
            let agent = AgentInterface.busName
            try bus.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(agent)'")
            // arg0 matches strings only: the pid (u) is checked here, in `agentSignal`.
            for member in [AgentInterface.Signal.siteRestricted, AgentInterface.Signal.siteAllowed] {
                try bus.addMatch("type='signal',sender='\(agent)',interface='\(AgentInterface.interface)',member='\(member)'")
            }
            bus.onSignal(interface: "org.freedesktop.DBus", member: "NameOwnerChanged") { [weak self] message in
                guard message.arguments.first?.stringValue == agent, let owner = message.arguments.dropFirst(2).first?.stringValue else { return }
                self?.agentChanged(present: !owner.isEmpty)
            }
            bus.onSignal(interface: AgentInterface.interface) { [weak self] message in self?.agentSignal(message) }
            connection = bus
            agentChanged(present: try bus.nameHasOwner(agent))
        } catch {
            logLine("no session bus (\(error)); looking again in 2 s")
            lost()
        }
    }

    private func lost() {
        connection?.close()
        connection = nil
        if agentPresent { agentPresent = false; onAgent(false) }
        reconnectAt = .now + .seconds(2)
    }

    /// The bus's descriptor is readable (or it is time to look for replies that never came).
    func dispatch() {
        guard let connection else { return }
        do {
            try connection.dispatchPending()
            connection.expireOverdueReplies()
        } catch {
            logLine("lost the session bus (\(error))")
            lost()
        }
    }

    private func agentChanged(present: Bool) {
        guard present != agentPresent else { return }
        agentPresent = present
        if present {
            if let browserName { call(AgentInterface.Method.browserHello, [.uint32(browserPID), .string(browserName)]) }
            if let lastTab { call(AgentInterface.Method.browserTab, Self.arguments(lastTab, browserPID)) }
        }
        onAgent(present)
    }

    private func agentSignal(_ message: BusMessage) {
        let arguments = message.arguments
        guard arguments.first?.uint32Value == browserPID, let site = arguments.dropFirst().first?.stringValue else { return }
        switch message.member {
        case AgentInterface.Signal.siteRestricted:
            onRestrict(site, arguments.dropFirst(2).first?.stringValue ?? "{}")
        case AgentInterface.Signal.siteAllowed:
            onAllow(site)
        default:
            break
        }
    }

    func hello(browser: String) {
        browserName = browser
        call(AgentInterface.Method.browserHello, [.uint32(browserPID), .string(browser)])
    }

    func tab(_ tab: BrowserTab) {
        guard tab != lastTab else { return }
        lastTab = tab
        call(AgentInterface.Method.browserTab, Self.arguments(tab, browserPID))
    }

    /// The card's answer; `answered` gets the seconds granted, or the agent's refusal.
    func choice(site: Site, choice: String, answered: @escaping (Result<Double, Error>) -> Void) {
        call(AgentInterface.Method.browserChoice, [.uint32(browserPID), .string(site.domain), .string(choice)]) { result in
            answered(result.map { $0.first?.doubleValue ?? 0 })
        }
    }

    /// The browser closed its end: the agent forgets this browser at once rather than counting on.
    func gone() {
        guard let connection, agentPresent else { return }
        _ = try? connection.call(destination: AgentInterface.busName, path: AgentInterface.objectPath, interface: AgentInterface.interface,
                                 method: AgentInterface.Method.browserGone, arguments: [.uint32(browserPID)], timeout: .seconds(1))
        connection.flush()
    }

    private func call(_ method: String, _ arguments: [BusValue], answered: ((Result<[BusValue], Error>) -> Void)? = nil) {
        guard let connection, agentPresent else {
            answered?(.failure(BusMethodError(name: BusMethodError.serviceUnknown, message: "the screentime agent is not running")))
            return
        }
        do {
            try connection.send(destination: AgentInterface.busName, path: AgentInterface.objectPath, interface: AgentInterface.interface,
                                method: method, arguments: arguments, timeout: .seconds(5), autoStart: false) { result in
                if case .failure(let error) = result { logLine("\(method): \(error)") }
                answered?(result)
            }
            connection.flush()
        } catch {
            logLine("\(method): \(error)")
            answered?(.failure(error))
        }
    }

    private static func arguments(_ tab: BrowserTab, _ pid: UInt32) -> [BusValue] {
        [.uint32(pid), .bool(tab.focused), .string(tab.site?.domain ?? ""), .bool(tab.audible), .bool(tab.incognito)]
    }
}
