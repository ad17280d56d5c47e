import FoundationEssentials
import I3IPCBackend
import ScreenTimeCore
import SessionBus

/// What a provider needs to start.
struct ProviderContext {
    let environment: [String: String]
    /// The agent's session bus connection, for providers that speak D-Bus (shell extensions,
    /// KWin scripts, Mutter's idle monitor); nil while there is none.
    let bus: BusConnection?
    /// Where saved display state goes (restored after a crash).
    let runtimeDirectory: String
    let idleThreshold: TimeInterval
}

/// Why a provider did not start: the next one is tried.
struct ProviderUnavailable: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Starts a provider of one kind. Each kind's case is the only place that knows its type.
enum ProviderFactory {
    /// The Wayland registry's interface names (empty until the Wayland backend reads them).
    static func waylandGlobals(environment: [String: String]) -> Set<String> { [] }

    static func make(_ kind: DesktopProviderKind, context: ProviderContext) throws -> DesktopProvider {
        switch kind {
        case .x11:
            return try X11Provider(displayName: context.environment["DISPLAY"], idleThreshold: context.idleThreshold)
        case .randr:
            return try RandRFilterProvider(displayName: context.environment["DISPLAY"], runtimeDirectory: context.runtimeDirectory)
        case .i3IPC:
            do {
                return try I3IPCProvider(environment: context.environment)
            } catch {
                throw ProviderUnavailable("sway/i3 IPC: \(error); is the compositor running and SWAYSOCK (or I3SOCK) its socket?")
            }
        case .hyprland: throw ProviderUnavailable("Hyprland: not built yet")
        case .hyprlandCTM: throw ProviderUnavailable("Hyprland CTM: not built yet")
        case .gnomeShell: return try GnomeShellProvider(bus: sessionBus(context, for: "the GNOME Shell extension"),
                                                        environment: context.environment)
        case .mutterIdle: return try MutterIdleProvider(bus: sessionBus(context, for: "Mutter's idle monitor"),
                                                        threshold: context.idleThreshold)
        case .plasmaWindows: throw ProviderUnavailable("plasma window management: not built yet")
        case .kwinScript: throw ProviderUnavailable("KWin script: not built yet")
        case .kwinNightLight: throw ProviderUnavailable("KWin Night Light: not built yet")
        case .wlrForeignToplevel: throw ProviderUnavailable("wlr foreign toplevel: not built yet")
        case .waylandIdle: throw ProviderUnavailable("Wayland idle: not built yet")
        case .wlrGamma: throw ProviderUnavailable("wlr gamma control: not built yet")
        case .dummy: return DummyProvider()
        }
    }

    private static func sessionBus(_ context: ProviderContext, for what: String) throws -> BusConnection {
        guard let bus = context.bus else { throw ProviderUnavailable("\(what) needs the session bus, and the agent has none") }
        return bus
    }
}

/// The last resort for every capability: no focus (nothing counts), nothing minimized, the user
/// always present, no filter. `doctor` says what is missing.
final class DummyProvider: FocusProvider, WindowMinimizer, IdleProvider, ScreenFilterProvider {
    let providerName = "none"
    var onFocus: ((FocusEvent) -> Void)?
    var needsTitle: (WindowFacts) -> Bool = { _ in false }
    var onIdle: ((IdleTransition) -> Void)?
    let abilities = ScreenFilterAbilities.none

    func currentFocus() throws -> WindowFacts? { nil }
    func titleRulesChanged() {}
    func minimize(_ app: AppID, identify: @escaping (WindowFacts) -> AppID) throws {}
    func setThreshold(_ threshold: TimeInterval) throws {}
    func set(_ filter: ColorFilter, now: Date) throws -> Date? { nil }
    func step(now: Date) throws -> Date? { nil }
    func restore() {}
}
