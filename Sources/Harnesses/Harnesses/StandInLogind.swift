import Foundation
import SessionBus

/// logind as the agent sees it, since logind itself cannot run in the harness: a private
/// system-like bus (its own `dbus-daemon`) and a peer owning `org.freedesktop.login1` that sends
/// what logind sends on a suspend and a lock, for session "2", and answers its `Timestamp` (when it
/// began) as logind does, while `serve()` is called.
public final class StandInLogind {
    public static let sessionID = "2"
    /// logind's escaping of "2", spelled out rather than computed by the code under test.
    public static let sessionPath = "/org/freedesktop/login1/session/_32"
    public let address: String
    /// When session "2" began, as its `Timestamp` property says.
    public var sessionStart = Date()
    private let daemon = Process()
    private let peer: BusConnection

    public init(in directory: URL) throws {
        let folder = directory.appendingPathComponent("system-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let socket = folder.appendingPathComponent("socket").path
        address = "unix:path=\(socket)"
        let config = folder.appendingPathComponent("system.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>\(address)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <deny own="*"/>
            <allow own="org.freedesktop.login1"/>
            <allow send_type="method_call"/>
            <allow send_type="signal"/>
            <allow send_requested_reply="true" send_type="method_return"/>
            <allow send_requested_reply="true" send_type="error"/>
            <allow receive_type="method_call"/>
            <allow receive_type="method_return"/>
            <allow receive_type="error"/>
            <allow receive_type="signal"/>
          </policy>
        </busconfig>
        """.write(to: config, atomically: true, encoding: .utf8)
        daemon.executableURL = URL(fileURLWithPath: try DesktopHarness.which("dbus-daemon"))
        daemon.arguments = ["--config-file=\(config.path)", "--nofork", "--nopidfile"]
        daemon.standardOutput = FileHandle.nullDevice
        daemon.standardError = FileHandle.nullDevice
        try daemon.run()
        var connection: BusConnection?
        let (daemon, address) = (self.daemon, self.address)
        Wait.poll(timeout: 10) {
            connection = try? BusConnection(address: address)
            return connection != nil || !daemon.isRunning
        }
        guard let connection else {
            daemon.terminate()
            throw DesktopHarness.Failure.didNotStart("the stand-in system bus", "no connection at \(address)")
        }
        peer = connection
        guard try peer.requestName("org.freedesktop.login1") else {
            throw DesktopHarness.Failure.didNotStart("the stand-in logind", "org.freedesktop.login1 is taken")
        }
        try peer.export(path: Self.sessionPath, interface: "org.freedesktop.DBus.Properties", introspection: Self.propertiesXML) {
            [unowned self] member, arguments in
            guard member == "Get", arguments.count == 2, arguments[0].stringValue == "org.freedesktop.login1.Session",
                  arguments[1].stringValue == "Timestamp" else {
                throw BusMethodError(name: "org.freedesktop.DBus.Error.UnknownProperty", message: "the stand-in knows Session.Timestamp only")
            }
            return [.variant(.uint64(UInt64(sessionStart.timeIntervalSince1970 * 1_000_000)))]
        }
    }

    private static let propertiesXML = """
        <interface name="org.freedesktop.DBus.Properties"><method name="Get"><arg type="s" direction="in"/>\
        <arg type="s" direction="in"/><arg type="v" direction="out"/></method></interface>
        """

    /// Answers the calls that arrived (the agent's question about the session's start).
    public func serve() throws { try peer.dispatchPending() }

    /// What the agent's environment needs to find this logind and its session.
    public var environment: [String: String] {
        ["DBUS_SYSTEM_BUS_ADDRESS": address, "XDG_SESSION_ID": Self.sessionID]
    }

    public func prepareForSleep(_ sleeping: Bool) throws {
        try send(path: "/org/freedesktop/login1", interface: "org.freedesktop.login1.Manager", member: "PrepareForSleep",
                 [.bool(sleeping)])
    }

    /// `loginctl lock-session`: the session's `Lock` signal.
    public func lock() throws {
        try send(path: Self.sessionPath, interface: "org.freedesktop.login1.Session", member: "Lock")
    }

    public func unlock() throws {
        try send(path: Self.sessionPath, interface: "org.freedesktop.login1.Session", member: "Unlock")
    }

    /// A locker setting the session's `LockedHint`: PropertiesChanged on the session.
    public func setLockedHint(_ locked: Bool) throws {
        try send(path: Self.sessionPath, interface: "org.freedesktop.DBus.Properties", member: "PropertiesChanged",
                 [.string("org.freedesktop.login1.Session"), .vardict(["LockedHint": .bool(locked)]), .strings([])])
    }

    private func send(path: String, interface: String, member: String, _ arguments: [BusValue] = []) throws {
        try peer.emitSignal(path: path, interface: interface, member: member, arguments: arguments)
        peer.flush()
    }

    deinit {
        peer.close()
        daemon.terminate()
        daemon.waitUntilExit()
    }
}
