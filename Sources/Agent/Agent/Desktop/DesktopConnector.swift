import Glibc
import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// Starts the desktop's providers: for each capability, the selection's candidates in order until
/// one starts (a provider serving several capabilities is started once), the dummy last. The
/// choices are the caller's to log (the agent logs them when they change).
public enum DesktopConnector {
    /// Only the capabilities in `wanted` are looked for; the others get the dummy.
    static func connect(facts: SessionFacts, context: ProviderContext,
                        wanted: Set<DesktopCapability> = Set(DesktopCapability.allCases)) -> Desktop {
        var started: [DesktopProviderKind: DesktopProvider] = [:]
        var failed: [DesktopProviderKind: String] = [:]
        var connections: [DesktopConnection] = []
        var choices: [ProviderChoice] = []

        func choose<Capability>(_ capability: DesktopCapability, as type: Capability.Type) -> Capability {
            var skipped: [String] = []
            let candidates = wanted.contains(capability) ? DesktopSelection.candidates(for: capability, in: facts) : []
            for candidate in candidates {
                if let why = failed[candidate.kind] {
                    skipped.append("\(candidate.kind.rawValue): \(why)")
                    continue
                }
                let provider: DesktopProvider
                if let known = started[candidate.kind] {
                    provider = known
                } else {
                    do { provider = try ProviderFactory.make(candidate.kind, context: context) } catch {
                        failed[candidate.kind] = "\(error)"
                        skipped.append("\(candidate.kind.rawValue): \(error)")
                        continue
                    }
                    started[candidate.kind] = provider
                    if let connection = provider as? DesktopConnection { connections.append(connection) }
                }
                guard let fit = provider as? Capability else {
                    skipped.append("\(candidate.kind.rawValue): does not provide \(capability.rawValue)")
                    continue
                }
                var name = provider.describe(capability)
                if capability == .screenFilter, let filter = provider as? ScreenFilterProvider { name += "; shows \(filter.abilities)" }
                let choice = ProviderChoice(capability: capability, kind: candidate.kind, providerName: name,
                                            reason: candidate.reason, skipped: skipped)
                choices.append(choice)
                return fit
            }
            // The selection always ends with the dummy, which provides everything.
            return DummyProvider() as! Capability
        }

        let focus = choose(.focus, as: FocusProvider.self)
        let windows = choose(.minimize, as: WindowMinimizer.self)
        let idle = choose(.idle, as: IdleProvider.self)
        let filter = choose(.screenFilter, as: ScreenFilterProvider.self)
        // Providers started but chosen for nothing are closed again.
        let used = Set([focus, windows, idle, filter].map { ObjectIdentifier($0 as AnyObject) })
        connections.removeAll { connection in
            guard !used.contains(ObjectIdentifier(connection)) else { return false }
            connection.close()
            return true
        }
        return Desktop(focus: focus, windows: windows, idle: idle, filter: filter, connections: connections, choices: choices)
    }

    /// Starts this session's providers for `wanted` on a bus connection of its own, for a
    /// short-lived command (`doctor`, `display restore`), hands them to `body`, then closes them,
    /// putting the screen back only when `restoringScreen`.
    static func withProviders<Result>(environment: [String: String], wanted: Set<DesktopCapability>,
                                      restoringScreen: Bool, _ body: (Desktop) -> Result) -> Result {
        let bus = try? BusConnection(address: environment["DBUS_SESSION_BUS_ADDRESS"])
        defer { bus?.close() }
        let context = ProviderContext(environment: environment, bus: bus,
                                      runtimeDirectory: XDGPaths.runtimeDirectory(environment: environment, uid: getuid()),
                                      idleThreshold: 300, now: { SystemClock().read().wall })
        let desktop = connect(facts: probe(environment: environment, bus: bus), context: context, wanted: wanted)
        defer { desktop.close(restoringScreen: restoringScreen) }
        return body(desktop)
    }

    /// Puts the screen's colours back through this session's screen filter provider, for
    /// `screentime display restore` after a crash on Wayland (on X11 the saved ramps are used
    /// directly). Returns the provider's name.
    public static func restoreScreen(environment: [String: String]) -> String {
        withProviders(environment: environment, wanted: [.screenFilter], restoringScreen: true) { $0.filter.providerName }
    }

    /// What the environment, the session bus and the Wayland registry tell of the session.
    static func probe(environment: [String: String], bus: BusConnection?) -> SessionFacts {
        var facts = SessionFacts(environment: environment)
        if let bus {
            for name in [DesktopSelection.gnomeShellBusName, DesktopSelection.kwinBusName] where (try? bus.nameHasOwner(name)) == true {
                facts.busNames.insert(name)
            }
        }
        if facts.hasWaylandDisplay { facts.waylandGlobals = ProviderFactory.waylandGlobals(environment: environment) }
        return facts
    }
}
