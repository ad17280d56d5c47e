import FoundationEssentials
import ScreenTimeCore

/// Idle through the compositor's idle watches: `ext_idle_notifier_v1` (KWin, sway 1.8+), else
/// KDE's older `org_kde_kwin_idle` (sway 1.7). The compositor says `idled` as the threshold is
/// crossed, which is when the user counts as idle (as with the X11 idle alarms): the minutes
/// without input before it still count as use.
public final class WaylandIdleProvider: WaylandClient, IdleProvider {
    public var providerName: String { "Wayland idle (\(notifier.interfaceName))" }
    public var onIdle: ((IdleTransition) -> Void)?

    private let notifier: IdleNotifierProxy
    private let seat: OpaquePointer
    private let clock: () -> Date
    private var watch: IdleWatchProxy?
    private var threshold: TimeInterval
    private var idle = false

    /// Connects to the compositor `environment` names and starts a watch of `threshold`.
    public init(environment: [String: String], threshold: TimeInterval, clock: @escaping () -> Date = Date.init) throws {
        let (display, registry) = try RegistryProxy.connect(environment: environment)
        guard let notifier = registry.first(DesktopSelection.extIdleGlobal).flatMap(registry.bindExtIdleNotifier)
                ?? registry.first(DesktopSelection.kdeIdleGlobal).flatMap(registry.bindKDEIdle) else {
            throw WaylandError.missingGlobal("\(DesktopSelection.extIdleGlobal) or \(DesktopSelection.kdeIdleGlobal)")
        }
        self.notifier = notifier
        seat = try registry.require("wl_seat", registry.bindSeat)
        self.clock = clock
        self.threshold = threshold
        super.init(display: display, registry: registry)
        try startWatch()
    }

    /// Replaces the watch; the new one starts from "active": a user idle until now is reported
    /// active (a new watch says `resumed` only after its own `idled`), and idle again once the new
    /// threshold has passed.
    public func setThreshold(_ threshold: TimeInterval) throws {
        guard threshold != self.threshold else { return }
        self.threshold = threshold
        watch?.destroy()
        if idle {
            idle = false
            onIdle?(.becameActive(at: clock()))
        }
        try startWatch()
    }

    private func startWatch() throws {
        let milliseconds = UInt32(min(max(threshold * 1000, 1), Double(UInt32.max)))
        guard let watch = notifier.watch(seat: seat, milliseconds: milliseconds) else {
            throw WaylandError.missingGlobal(notifier.interfaceName)
        }
        watch.onIdled = { [unowned self] in
            guard !idle else { return }
            idle = true
            onIdle?(.becameIdle(at: clock()))
        }
        watch.onResumed = { [unowned self] in
            guard idle else { return }
            idle = false
            onIdle?(.becameActive(at: clock()))
        }
        self.watch = watch
        try display.flush()
    }
}
