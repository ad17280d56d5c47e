import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// Idle on GNOME (Wayland or X11): Mutter's idle monitor on the session bus. One idle watch at the
/// threshold and, once it fires, one user-active watch (Mutter removes a fired active watch). Rides
/// on the agent's bus connection.
public final class MutterIdleProvider: IdleProvider, DesktopConnection {
    public static let busName = "org.gnome.Mutter.IdleMonitor"
    static let objectPath = "/org/gnome/Mutter/IdleMonitor/Core"
    static let interface = "org.gnome.Mutter.IdleMonitor"

    public let providerName = "Mutter idle monitor"
    public var onIdle: ((IdleTransition) -> Void)?
    public let pollDescriptor: Int32 = -1
    public var wantsToWrite: Bool { false }
    public var hasBufferedInput: Bool { false }

    private let bus: BusConnection
    private var idleWatch: UInt32?
    private var activeWatch: UInt32?
    private var isIdle = false
    private var isClosed = false

    /// Blocks for one round trip to Mutter (GetIdletime), which also tells that it is there.
    private let now: () -> Date

    public init(bus: BusConnection, threshold: TimeInterval, now: @escaping () -> Date) throws {
        self.now = now
        self.bus = bus
        do {
            _ = try call("GetIdletime")
        } catch {
            throw ProviderUnavailable("Mutter's idle monitor (\(Self.busName)) does not answer: this is not a GNOME session (\(error))")
        }
        try bus.addMatch("type='signal',interface='\(Self.interface)',member='WatchFired',path='\(Self.objectPath)'")
        bus.onSignal(interface: Self.interface, member: "WatchFired") { [weak self] message in
            guard let id = message.arguments.first?.uint32Value else { return }
            self?.watchFired(id)
        }
        try setThreshold(threshold)
    }

    public func setThreshold(_ threshold: TimeInterval) throws {
        try removeWatches()
        isIdle = false
        let milliseconds = UInt64(max(threshold, 0.001) * 1000)
        idleWatch = try call("AddIdleWatch", [.uint64(milliseconds)]).first?.uint32Value
    }

    private func watchFired(_ id: UInt32) {
        guard !isClosed else { return }
        let now = now()
        if id == idleWatch, !isIdle {
            isIdle = true
            onIdle?(.becameIdle(at: now))
            // Fires once, at the next input.
            try? bus.send(destination: Self.busName, path: Self.objectPath, interface: Self.interface,
                          method: "AddUserActiveWatch", timeout: .seconds(5)) { [weak self] result in
                guard case .success(let reply) = result else { return }
                self?.activeWatch = reply.first?.uint32Value
            }
        } else if id == activeWatch, isIdle {
            isIdle = false
            activeWatch = nil
            onIdle?(.becameActive(at: now))
        }
    }

    private func removeWatches() throws {
        for id in [idleWatch, activeWatch].compactMap({ $0 }) { _ = try call("RemoveWatch", [.uint32(id)]) }
        idleWatch = nil
        activeWatch = nil
    }

    private func call(_ method: String, _ arguments: [BusValue] = []) throws -> [BusValue] {
        try bus.call(destination: Self.busName, path: Self.objectPath, interface: Self.interface, method: method,
                     arguments: arguments, timeout: .seconds(2))
    }

    public func handleReadable() throws {}
    public func nextDeadline(after now: Date) -> Date? { nil }
    public func handleDeadline(now: Date) throws {}

    public func close() {
        guard !isClosed else { return }
        isClosed = true
        try? removeWatches()
    }
}
