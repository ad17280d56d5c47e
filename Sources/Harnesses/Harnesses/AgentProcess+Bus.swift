import Foundation
import SessionBus

extension AgentProcess {
    /// Calls a method of `org.screentime.Agent1` on this agent's session bus, as a status bar would.
    public func call(_ method: String, _ arguments: [BusValue] = []) throws -> [BusValue] {
        try BusConnection(address: environment["DBUS_SESSION_BUS_ADDRESS"]).call(
            destination: AgentInterface.busName, path: AgentInterface.objectPath,
            interface: AgentInterface.interface, method: method, arguments: arguments)
    }

    /// Writes `ID.desktop` into this test's own data folder (the first of `XDG_DATA_DIRS`, before
    /// the machine's), as installing an app would.
    public static func installDesktopEntry(_ id: String, _ entry: String, environment: [String: String]) throws {
        let ownFolder = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").first.map(String.init) ?? ""
        let applications = URL(fileURLWithPath: ownFolder).appendingPathComponent("applications")
        try FileManager.default.createDirectory(at: applications, withIntermediateDirectories: true)
        try entry.write(to: applications.appendingPathComponent("\(id).desktop"), atomically: true, encoding: .utf8)
    }
}
