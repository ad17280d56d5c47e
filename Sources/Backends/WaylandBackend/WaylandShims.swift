import CWayland
import Glibc
import ScreenTimeCore
import SystemErrors

// The one file of this module that calls libwayland-client and the generated protocol code.
// Everything else sees small typed objects (`WaylandDisplay`, `RegistryProxy`, `ToplevelHandleProxy`...)
// whose events arrive as Swift closures, and typed errors (`WaylandError`).
//
// Listeners: each proxy type has one listener table of C function pointers, allocated once; the
// proxy's user data is an unretained pointer to the Swift object wrapping it. The owner keeps
// that object alive as long as the proxy can deliver events (until it is destroyed or the display
// disconnected). Events are delivered only inside `dispatchPending`/`roundtrip`, so on the
// agent's loop, from `handleReadable` or a connect-time round trip.
//
// Proxies are not destroyed one by one at close: `wl_display_disconnect` ends them all on the
// compositor's side (restoring the gamma, dropping the idle watches).

/// A failure of the Wayland connection, with what was asked.
public enum WaylandError: Error, Equatable, CustomStringConvertible {
    /// No compositor answered at that socket.
    case cannotConnect(socket: String, errno: Int32)
    /// The compositor closed the connection or sent a protocol error.
    case connectionLost(socket: String, errno: Int32)
    /// The compositor does not offer a global the provider needs.
    case missingGlobal(String)
    /// The gamma ramps could not be written to a file to hand over.
    case rampFile(errno: Int32)

    public var description: String {
        switch self {
        case .cannotConnect(let socket, let code):
            return "cannot connect to the Wayland compositor at \(socket): \(Errno(code))"
        case .connectionLost(let socket, let code):
            return "the Wayland connection \(socket) was lost: \(Errno(code))"
        case .missingGlobal(let name): return "the compositor does not offer \(name)"
        case .rampFile(let code): return "cannot write gamma ramps to a memfd: \(Errno(code))"
        }
    }
}

/// One connection to a compositor (`wl_display`), read without blocking.
final class WaylandDisplay {
    /// The socket path, for messages.
    let socket: String
    private var display: OpaquePointer?
    /// Output the socket did not take yet; poll for POLLOUT.
    private(set) var wantsToWrite = false

    /// Connects to the compositor `WAYLAND_DISPLAY` names in `environment` (relative to
    /// `XDG_RUNTIME_DIR` unless absolute), not the process's own environment.
    init(environment: [String: String]) throws {
        let name = environment["WAYLAND_DISPLAY"].flatMap { $0.isEmpty ? nil : $0 } ?? "wayland-0"
        socket = name.hasPrefix("/") ? name : (environment["XDG_RUNTIME_DIR"] ?? "") + "/" + name
        errno = 0
        guard let display = wl_display_connect(socket) else {
            throw WaylandError.cannotConnect(socket: socket, errno: errno == 0 ? ECONNREFUSED : errno)
        }
        self.display = display
    }

    deinit { disconnect() }

    var descriptor: Int32 { display.map { wl_display_get_fd($0) } ?? -1 }
    var isConnected: Bool { display != nil }

    /// Sends everything and waits until the compositor answered all of it (connect time only).
    func roundtrip() throws {
        guard let display, wl_display_roundtrip(display) >= 0 else { throw lost() }
    }

    /// Writes queued requests; what the socket does not take waits for POLLOUT.
    func flush() throws {
        guard let display else { throw lost() }
        if wl_display_flush(display) < 0 {
            guard errno == EAGAIN else { throw lost() }
            wantsToWrite = true
        } else {
            wantsToWrite = false
        }
    }

    /// Reads what the socket holds without blocking and delivers every event to its listener.
    func readAndDispatch() throws {
        guard let display else { throw lost() }
        while wl_display_prepare_read(display) != 0 {
            guard wl_display_dispatch_pending(display) >= 0 else { throw lost() }
        }
        try? flush()
        var ready = pollfd(fd: wl_display_get_fd(display), events: Int16(POLLIN), revents: 0)
        if poll(&ready, 1, 0) > 0 {
            guard wl_display_read_events(display) >= 0 else { throw lost() }
        } else {
            wl_display_cancel_read(display)
        }
        guard wl_display_dispatch_pending(display) >= 0 else { throw lost() }
        try flush()
    }

    func disconnect() {
        guard let display else { return }
        wl_display_disconnect(display)
        self.display = nil
    }

    fileprivate func lost() -> WaylandError {
        let code = display.map { wl_display_get_error($0) } ?? 0
        return .connectionLost(socket: socket, errno: code != 0 ? code : (errno != 0 ? errno : EPIPE))
    }

    fileprivate func registry() throws -> OpaquePointer {
        guard let display, let registry = wl_display_get_registry(display) else { throw lost() }
        return registry
    }
}

/// Builds a listener table once; it must outlive every proxy that uses it. Each table is written
/// here, before any proxy has it, and only read (by libwayland) after: so `nonisolated(unsafe)`.
private func listenerTable<Listener>(_ listener: Listener) -> UnsafeMutablePointer<Listener> {
    let table = UnsafeMutablePointer<Listener>.allocate(capacity: 1)
    table.initialize(to: listener)
    return table
}

private func owner<T: AnyObject>(_ data: UnsafeMutableRawPointer?, as type: T.Type) -> T? {
    data.map { Unmanaged<T>.fromOpaque($0).takeUnretainedValue() }
}

private func text(_ pointer: UnsafePointer<CChar>?) -> String {
    pointer.map { String(cString: $0) } ?? ""
}

/// The registry: the globals the compositor offers, and binding them.
final class RegistryProxy {
    struct Global: Equatable {
        let name: UInt32
        let interface: String
        let version: UInt32
    }

    private let registry: OpaquePointer
    private(set) var globals: [Global] = []
    /// A global went away (an output unplugged): its registry name.
    var onRemove: ((UInt32) -> Void)?
    /// A global appeared after the first round trip (an output plugged in).
    var onAdd: ((Global) -> Void)?

    nonisolated(unsafe) private static let listener = listenerTable(wl_registry_listener(
        global: { data, _, name, interface, version in
            guard let registry = owner(data, as: RegistryProxy.self) else { return }
            let global = Global(name: name, interface: text(interface), version: version)
            registry.globals.append(global)
            registry.onAdd?(global)
        },
        global_remove: { data, _, name in
            guard let registry = owner(data, as: RegistryProxy.self) else { return }
            registry.globals.removeAll { $0.name == name }
            registry.onRemove?(name)
        }))

    /// Asks for the globals and waits for them (connect time).
    init(display: WaylandDisplay) throws {
        registry = try display.registry()
        wl_registry_add_listener(registry, Self.listener, Unmanaged.passUnretained(self).toOpaque())
        try display.roundtrip()
    }

    /// Connects to the compositor `environment` names and reads its globals (one round trip).
    static func connect(environment: [String: String]) throws -> (WaylandDisplay, RegistryProxy) {
        let display = try WaylandDisplay(environment: environment)
        return (display, try RegistryProxy(display: display))
    }

    func first(_ interface: String) -> Global? { globals.first { $0.interface == interface } }

    /// Binds the first global named `interface`, or throws: the compositor does not offer it.
    func require<Proxy>(_ interface: String, _ bind: (Global) -> Proxy?) throws -> Proxy {
        guard let proxy = first(interface).flatMap(bind) else { throw WaylandError.missingGlobal(interface) }
        return proxy
    }

    func all(_ interface: String) -> [Global] { globals.filter { $0.interface == interface } }

    func bindSeat(_ global: Global) -> OpaquePointer? {
        cwayland_bind_seat(registry, global.name, min(global.version, 1))
    }

    func bindOutput(_ global: Global) -> OpaquePointer? {
        cwayland_bind_output(registry, global.name, min(global.version, 1))
    }

    func bindForeignToplevelManager(_ global: Global) -> ForeignToplevelManagerProxy? {
        cwayland_bind_foreign_toplevel_manager(registry, global.name, min(global.version, 3))
            .map(ForeignToplevelManagerProxy.init)
    }

    func bindGammaControlManager(_ global: Global) -> GammaControlManagerProxy? {
        cwayland_bind_gamma_control_manager(registry, global.name, 1).map(GammaControlManagerProxy.init)
    }

    func bindPlasmaWindowManagement(_ global: Global) -> PlasmaWindowManagementProxy? {
        cwayland_bind_plasma_window_management(registry, global.name, min(global.version, 16))
            .map(PlasmaWindowManagementProxy.init)
    }

    func bindExtIdleNotifier(_ global: Global) -> IdleNotifierProxy? {
        cwayland_bind_ext_idle_notifier(registry, global.name, 1).map(IdleNotifierProxy.ext)
    }

    func bindKDEIdle(_ global: Global) -> IdleNotifierProxy? {
        cwayland_bind_kde_idle(registry, global.name, 1).map(IdleNotifierProxy.kde)
    }
}

// MARK: wlr foreign toplevel management

/// `zwlr_foreign_toplevel_manager_v1`: announces every toplevel as a handle.
final class ForeignToplevelManagerProxy {
    private let manager: OpaquePointer
    var onToplevel: ((ToplevelHandleProxy) -> Void)?
    /// The compositor stopped sending toplevels (it is shutting the protocol down).
    var onFinished: (() -> Void)?

    nonisolated(unsafe) private static let listener = listenerTable(zwlr_foreign_toplevel_manager_v1_listener(
        toplevel: { data, _, handle in
            guard let manager = owner(data, as: ForeignToplevelManagerProxy.self), let handle else { return }
            manager.onToplevel?(ToplevelHandleProxy(handle))
        },
        finished: { data, _ in owner(data, as: ForeignToplevelManagerProxy.self)?.onFinished?() }))

    fileprivate init(_ manager: OpaquePointer) {
        self.manager = manager
        zwlr_foreign_toplevel_manager_v1_add_listener(manager, Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }
}

/// One toplevel's handle. Changes arrive one by one, then `done` closes the batch.
final class ToplevelHandleProxy {
    enum State: UInt32 {
        case maximized = 0, minimized, activated, fullscreen
    }

    private let handle: OpaquePointer
    /// The object id on this connection: unique among live handles.
    let id: UInt32
    var onTitle: ((String) -> Void)?
    var onAppID: ((String) -> Void)?
    var onState: ((Set<State>) -> Void)?
    var onDone: (() -> Void)?
    var onClosed: (() -> Void)?

    nonisolated(unsafe) private static let listener = listenerTable(zwlr_foreign_toplevel_handle_v1_listener(
        title: { data, _, title in owner(data, as: ToplevelHandleProxy.self)?.onTitle?(text(title)) },
        app_id: { data, _, appID in owner(data, as: ToplevelHandleProxy.self)?.onAppID?(text(appID)) },
        output_enter: { _, _, _ in },
        output_leave: { _, _, _ in },
        state: { data, _, array in
            guard let handle = owner(data, as: ToplevelHandleProxy.self), let array, let bytes = array.pointee.data else { return }
            let count = array.pointee.size / MemoryLayout<UInt32>.stride
            let values = UnsafeBufferPointer(start: bytes.assumingMemoryBound(to: UInt32.self), count: count)
            handle.onState?(Set(values.compactMap(State.init(rawValue:))))
        },
        done: { data, _ in owner(data, as: ToplevelHandleProxy.self)?.onDone?() },
        closed: { data, _ in owner(data, as: ToplevelHandleProxy.self)?.onClosed?() },
        parent: { _, _, _ in }))

    fileprivate init(_ handle: OpaquePointer) {
        self.handle = handle
        id = wl_proxy_get_id(handle)
        zwlr_foreign_toplevel_handle_v1_add_listener(handle, Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    func setMinimized() { zwlr_foreign_toplevel_handle_v1_set_minimized(handle) }

    /// After `closed`: the handle is dead on both sides.
    func destroy() { zwlr_foreign_toplevel_handle_v1_destroy(handle) }
}

// MARK: KDE plasma window management

/// `org_kde_plasma_window_management`: KWin's privileged list of windows.
final class PlasmaWindowManagementProxy {
    private let manager: OpaquePointer
    /// A window appeared: its id on this connection (from `window` and, since version 13,
    /// `window_with_uuid` too, for the same window).
    var onWindow: ((_ id: UInt32, _ uuid: String?) -> Void)?

    nonisolated(unsafe) private static let listener = listenerTable(org_kde_plasma_window_management_listener(
        show_desktop_changed: { _, _, _ in },
        window: { data, _, id in owner(data, as: PlasmaWindowManagementProxy.self)?.onWindow?(id, nil) },
        stacking_order_changed: { _, _, _ in },
        stacking_order_uuid_changed: { _, _, _ in },
        window_with_uuid: { data, _, id, uuid in
            owner(data, as: PlasmaWindowManagementProxy.self)?.onWindow?(id, text(uuid))
        },
        stacking_order_changed_2: { _, _ in }))

    fileprivate init(_ manager: OpaquePointer) {
        self.manager = manager
        org_kde_plasma_window_management_add_listener(manager, Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The window's object: by uuid where the compositor gave one, else by id.
    func window(id: UInt32, uuid: String?) -> PlasmaWindowProxy? {
        let window = uuid.map { org_kde_plasma_window_management_get_window_by_uuid(manager, $0) }
            ?? org_kde_plasma_window_management_get_window(manager, id)
        return window.map { PlasmaWindowProxy($0, id: id) }
    }
}

/// One window of KWin's list. Its properties arrive one by one; `initial_state` follows the first set.
final class PlasmaWindowProxy {
    /// `org_kde_plasma_window_management.state` flags.
    struct State: OptionSet {
        let rawValue: UInt32
        static let active = State(rawValue: ORG_KDE_PLASMA_WINDOW_MANAGEMENT_STATE_ACTIVE.rawValue)
        static let minimized = State(rawValue: ORG_KDE_PLASMA_WINDOW_MANAGEMENT_STATE_MINIMIZED.rawValue)
        static let skipTaskbar = State(rawValue: ORG_KDE_PLASMA_WINDOW_MANAGEMENT_STATE_SKIPTASKBAR.rawValue)
    }

    private let window: OpaquePointer
    /// KWin's internal id (the manager's `window` event).
    let id: UInt32
    var onTitle: ((String) -> Void)?
    var onAppID: ((String) -> Void)?
    var onState: ((State) -> Void)?
    var onPID: ((Int32) -> Void)?
    var onInitialState: (() -> Void)?
    var onUnmapped: (() -> Void)?

    nonisolated(unsafe) private static let listener = listenerTable(org_kde_plasma_window_listener(
        title_changed: { data, _, title in owner(data, as: PlasmaWindowProxy.self)?.onTitle?(text(title)) },
        app_id_changed: { data, _, appID in owner(data, as: PlasmaWindowProxy.self)?.onAppID?(text(appID)) },
        state_changed: { data, _, flags in owner(data, as: PlasmaWindowProxy.self)?.onState?(State(rawValue: flags)) },
        virtual_desktop_changed: { _, _, _ in },
        themed_icon_name_changed: { _, _, _ in },
        unmapped: { data, _ in owner(data, as: PlasmaWindowProxy.self)?.onUnmapped?() },
        initial_state: { data, _ in owner(data, as: PlasmaWindowProxy.self)?.onInitialState?() },
        parent_window: { _, _, _ in },
        geometry: { _, _, _, _, _, _ in },
        icon_changed: { _, _ in },
        pid_changed: { data, _, pid in owner(data, as: PlasmaWindowProxy.self)?.onPID?(Int32(bitPattern: pid)) },
        virtual_desktop_entered: { _, _, _ in },
        virtual_desktop_left: { _, _, _ in },
        application_menu: { _, _, _, _ in },
        activity_entered: { _, _, _ in },
        activity_left: { _, _, _ in },
        resource_name_changed: { _, _, _ in },
        client_geometry: { _, _, _, _, _, _ in }))

    fileprivate init(_ window: OpaquePointer, id: UInt32) {
        self.window = window
        self.id = id
        org_kde_plasma_window_add_listener(window, Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    func setMinimized() {
        org_kde_plasma_window_set_state(window, State.minimized.rawValue, State.minimized.rawValue)
    }

    /// After `unmapped`: the window is gone.
    func destroy() { org_kde_plasma_window_destroy(window) }
}

// MARK: idle

/// `ext_idle_notifier_v1`, or KDE's older `org_kde_kwin_idle`: idle watches on a seat.
enum IdleNotifierProxy {
    case ext(OpaquePointer)
    case kde(OpaquePointer)

    var interfaceName: String {
        switch self {
        case .ext: return DesktopSelection.extIdleGlobal
        case .kde: return DesktopSelection.kdeIdleGlobal
        }
    }

    func watch(seat: OpaquePointer, milliseconds: UInt32) -> IdleWatchProxy? {
        switch self {
        case .ext(let notifier):
            return ext_idle_notifier_v1_get_idle_notification(notifier, milliseconds, seat).map(IdleWatchProxy.init(ext:))
        case .kde(let idle):
            return org_kde_kwin_idle_get_idle_timeout(idle, seat, milliseconds).map(IdleWatchProxy.init(kde:))
        }
    }
}

/// One idle watch: `idled` after the timeout without input, `resumed` at the next input.
final class IdleWatchProxy {
    private enum Watch {
        case ext(OpaquePointer)
        case kde(OpaquePointer)
    }

    private let watch: Watch
    var onIdled: (() -> Void)?
    var onResumed: (() -> Void)?

    nonisolated(unsafe) private static let extListener = listenerTable(ext_idle_notification_v1_listener(
        idled: { data, _ in owner(data, as: IdleWatchProxy.self)?.onIdled?() },
        resumed: { data, _ in owner(data, as: IdleWatchProxy.self)?.onResumed?() }))

    nonisolated(unsafe) private static let kdeListener = listenerTable(org_kde_kwin_idle_timeout_listener(
        idle: { data, _ in owner(data, as: IdleWatchProxy.self)?.onIdled?() },
        resumed: { data, _ in owner(data, as: IdleWatchProxy.self)?.onResumed?() }))

    fileprivate init(ext notification: OpaquePointer) {
        watch = .ext(notification)
        ext_idle_notification_v1_add_listener(notification, Self.extListener, Unmanaged.passUnretained(self).toOpaque())
    }

    fileprivate init(kde timeout: OpaquePointer) {
        watch = .kde(timeout)
        org_kde_kwin_idle_timeout_add_listener(timeout, Self.kdeListener, Unmanaged.passUnretained(self).toOpaque())
    }

    func destroy() {
        switch watch {
        case .ext(let notification): ext_idle_notification_v1_destroy(notification)
        case .kde(let timeout): org_kde_kwin_idle_timeout_release(timeout)
        }
    }
}

// MARK: wlr gamma control

/// `zwlr_gamma_control_manager_v1`: one exclusive gamma control per output.
final class GammaControlManagerProxy {
    private let manager: OpaquePointer

    fileprivate init(_ manager: OpaquePointer) { self.manager = manager }

    func control(output: OpaquePointer) -> GammaControlProxy? {
        zwlr_gamma_control_manager_v1_get_gamma_control(manager, output).map(GammaControlProxy.init)
    }
}

/// An output's gamma, held until destroyed (the compositor then restores the original ramps).
final class GammaControlProxy {
    private let control: OpaquePointer
    /// How many entries each channel's ramp has.
    var onGammaSize: ((Int) -> Void)?
    /// Another client holds the output's gamma, or the output has none (headless): the control is dead.
    var onFailed: (() -> Void)?

    nonisolated(unsafe) private static let listener = listenerTable(zwlr_gamma_control_v1_listener(
        gamma_size: { data, _, size in owner(data, as: GammaControlProxy.self)?.onGammaSize?(Int(size)) },
        failed: { data, _ in owner(data, as: GammaControlProxy.self)?.onFailed?() }))

    fileprivate init(_ control: OpaquePointer) {
        self.control = control
        zwlr_gamma_control_v1_add_listener(control, Self.listener, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Hands the compositor the red, green and blue ramps, one after the other, in a memfd.
    func setGamma(_ ramps: [UInt16]) throws {
        let fd = memfd_create("screentime-gamma", CWAYLAND_MFD_CLOEXEC)
        guard fd >= 0 else { throw WaylandError.rampFile(errno: errno) }
        defer { Glibc.close(fd) }
        let size = ramps.count * MemoryLayout<UInt16>.stride
        let written = ramps.withUnsafeBytes { write(fd, $0.baseAddress, size) }
        guard written == size, lseek(fd, 0, SEEK_SET) == 0 else { throw WaylandError.rampFile(errno: errno) }
        // libwayland duplicates the descriptor when it queues the request.
        zwlr_gamma_control_v1_set_gamma(control, fd)
    }

    func destroy() { zwlr_gamma_control_v1_destroy(control) }
}
