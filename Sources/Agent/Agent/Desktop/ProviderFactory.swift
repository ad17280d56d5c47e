import Logging
import GnomeShellBackend
import FoundationEssentials
import HyprlandBackend
import I3IPCBackend
import KWinBackend
import ScreenTimeCore
import SessionBus
import WaylandBackend

/// What a provider needs to start.
struct ProviderContext {
    let environment: [String: String]
    /// The agent's session bus connection, for providers that speak D-Bus (shell extensions,
    /// KWin scripts, Mutter's idle monitor); nil while there is none.
    let bus: BusConnection?
    /// Where saved display state goes (restored after a crash).
    let runtimeDirectory: String
    let idleThreshold: TimeInterval
    /// The loop's instant, for providers that date what a callback brings.
    let now: () -> Date
}

/// Starts a provider of one kind. Each kind's case is the only place that knows its type.
enum ProviderFactory {
    /// The Wayland registry's interface names (empty without a compositor).
    static func waylandGlobals(environment: [String: String]) -> Set<String> {
        WaylandRegistry.globals(environment: environment)
    }

    static func make(_ kind: DesktopProviderKind, context: ProviderContext) throws -> DesktopProvider {
        switch kind {
        case .x11:
            return try X11Provider(displayName: context.environment["DISPLAY"], idleThreshold: context.idleThreshold, now: context.now)
        case .randr:
            return try RandRFilterProvider(displayName: context.environment["DISPLAY"], runtimeDirectory: context.runtimeDirectory)
        case .i3IPC:
            do {
                return try I3IPCProvider(environment: context.environment)
            } catch {
                throw ProviderUnavailable("sway/i3 IPC: \(error); is the compositor running and SWAYSOCK (or I3SOCK) its socket?")
            }
        case .hyprland:
            do {
                return try HyprlandProvider(environment: context.environment, now: context.now)
            } catch {
                throw ProviderUnavailable("Hyprland IPC: \(error); is Hyprland running and HYPRLAND_INSTANCE_SIGNATURE its instance?")
            }
        case .gnomeShell: return try GnomeShellProvider(bus: sessionBus(context, for: "the GNOME Shell extension"),
                                                        environment: context.environment)
        case .mutterIdle: return try MutterIdleProvider(bus: sessionBus(context, for: "Mutter's idle monitor"),
                                                        threshold: context.idleThreshold, now: context.now)
        case .plasmaWindows:
            return try wayland("plasma window management") { try PlasmaWindowsProvider(environment: context.environment) }
        case .kwinScript:
            let bus = try sessionBus(context, for: "the KWin script")
            do {
                return try KWinScriptProvider(bus: bus, runtimeDirectory: context.runtimeDirectory, now: context.now)
            } catch {
                throw ProviderUnavailable("KWin script: \(error)")
            }
        case .kwinNightLight:
            let bus = try sessionBus(context, for: "KWin's Night Light")
            do {
                return try KWinNightLight(bus: bus, configDirectory: XDGPaths.configHome(environment: context.environment),
                                          runtimeDirectory: context.runtimeDirectory)
            } catch {
                throw ProviderUnavailable("KWin Night Light: \(error)")
            }
        case .wlrForeignToplevel:
            return try wayland("wlr foreign toplevel") { try ForeignToplevelProvider(environment: context.environment) }
        case .waylandIdle:
            return try wayland("Wayland idle") {
                try WaylandIdleProvider(environment: context.environment, threshold: context.idleThreshold)
            }
        case .wlrGamma:
            return try wayland("wlr gamma control") {
                let provider = try WlrGammaProvider(environment: context.environment)
                provider.onRefusal = { Log.warning("screen filter: \($0)") }
                return provider
            }
        case .dummy: return DummyProvider()
        }
    }

    /// Starts a provider over the session's Wayland display, saying what to check when it cannot.
    private static func wayland(_ name: String, _ start: () throws -> DesktopProvider) throws -> DesktopProvider {
        do {
            return try start()
        } catch {
            throw ProviderUnavailable("\(name): \(error) (is WAYLAND_DISPLAY the compositor of this session?)")
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
