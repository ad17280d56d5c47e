import FoundationEssentials
import LocalProcess
import ScreenTimeCore

/// Focus and minimize on wlroots compositors through `zwlr_foreign_toplevel_manager_v1`: the
/// compositor announces every toplevel with its app id, title and states; the one `activated` is
/// focused. The protocol gives no pid, so identity rests on the app id. Some compositors (sway)
/// ignore `set_minimized`; the i3 IPC provider comes first there.
public final class ForeignToplevelProvider: WaylandWindowList, FocusProvider, WindowMinimizer {
    public let providerName = "wlr foreign toplevel"

    private let manager: ForeignToplevelManagerProxy
    private var toplevels: [UInt32: Toplevel] = [:]
    /// Counts activations, so that the latest wins when several toplevels say `activated`.
    private var activations = 0
    private var finished = false

    /// A toplevel's state as of its last `done` (changes before it are pending).
    private final class Toplevel {
        let handle: ToplevelHandleProxy
        var appID = ""
        var title = ""
        var states: Set<ToplevelHandleProxy.State> = []
        var pending = Pending()
        /// When it last became activated (`activations` then); 0 never.
        var activatedAt = 0

        struct Pending {
            var appID: String?
            var title: String?
            var states: Set<ToplevelHandleProxy.State>?
        }

        init(handle: ToplevelHandleProxy) { self.handle = handle }
    }

    /// Connects to the compositor `environment` names and reads the toplevels there now (two
    /// round trips: the only blocking calls).
    public init(environment: [String: String]) throws {
        let (display, registry) = try RegistryProxy.connect(environment: environment)
        manager = try registry.require(DesktopSelection.foreignToplevelGlobal, registry.bindForeignToplevelManager)
        super.init(display: display, registry: registry)
        manager.onToplevel = { [unowned self] handle in adopt(handle) }
        manager.onFinished = { [unowned self] in finished = true }
        try display.roundtrip()
        _ = try currentFocus()
    }

    // MARK: WindowMinimizer

    public func minimize(_ app: AppID, identify: @escaping (WindowFacts) -> AppID) throws {
        for toplevel in toplevels.values where !toplevel.states.contains(.minimized) && identify(facts(of: toplevel)) == app {
            toplevel.handle.setMinimized()
        }
        try display.flush()
    }

    // MARK: DesktopConnection

    override public func handleReadable() throws {
        try super.handleReadable()
        if finished { throw WaylandError.missingGlobal(DesktopSelection.foreignToplevelGlobal) }
    }

    // MARK: Toplevels

    private func adopt(_ handle: ToplevelHandleProxy) {
        let toplevel = Toplevel(handle: handle)
        toplevels[handle.id] = toplevel
        handle.onAppID = { [unowned toplevel] in toplevel.pending.appID = $0 }
        handle.onTitle = { [unowned toplevel] in toplevel.pending.title = $0 }
        handle.onState = { [unowned toplevel] in toplevel.pending.states = $0 }
        handle.onDone = { [unowned self, unowned toplevel] in commit(toplevel) }
        handle.onClosed = { [unowned self, unowned toplevel] in
            toplevel.handle.destroy()
            toplevels[toplevel.handle.id] = nil
        }
    }

    private func commit(_ toplevel: Toplevel) {
        let pending = toplevel.pending
        toplevel.pending = Toplevel.Pending()
        if let appID = pending.appID { toplevel.appID = appID }
        if let title = pending.title { toplevel.title = title }
        if let states = pending.states {
            if states.contains(.activated) && !toplevel.states.contains(.activated) {
                activations += 1
                toplevel.activatedAt = activations
            }
            toplevel.states = states
        }
    }

    private func facts(of toplevel: Toplevel) -> WindowFacts {
        WindowFacts.wayland(window: WindowID(UInt64(toplevel.handle.id)), appID: toplevel.appID, pid: nil,
                            title: toplevel.title)
    }

    override func focusedFacts() -> WindowFacts? {
        toplevels.values.filter { $0.states.contains(.activated) }
            .max { $0.activatedAt < $1.activatedAt }
            .map(facts(of:))
    }
}
