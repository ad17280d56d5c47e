import Foundation

/// A user's folders for an agent built in the test's own process: HOME and the XDG folders under
/// `home`, the runtime folder (0700) at `runtime`, the private bus at `busAddress`, no cards (a
/// card is a process of its own), and `config` written where the agent reads it.
public enum InProcessHome {
    public static func environment(home: URL, runtime: URL, busAddress: String, config: String) throws -> [String: String] {
        let environment = [
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path,
            "XDG_RUNTIME_DIR": runtime.path,
            "XDG_DATA_DIRS": home.appendingPathComponent("share").path,
            "DBUS_SESSION_BUS_ADDRESS": busAddress,
            "SCREENTIME_CARD": "off",
        ]
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try writeConfig(config, environment)
        return environment
    }

    /// Replaces the config the agent of `environment` reads.
    public static func writeConfig(_ config: String, _ environment: [String: String]) throws {
        let file = URL(fileURLWithPath: environment["XDG_CONFIG_HOME"]!).appendingPathComponent("screentime/config")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try config.write(to: file, atomically: true, encoding: .utf8)
    }
}
