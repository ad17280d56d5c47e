import Foundation

/// Debian's `firefox-esr` as a real window on a test desktop, with a profile of its own: the
/// project's extension installed unpacked in the profile (unsigned, as ESR allows), its native host
/// found in `$HOME/.mozilla/native-messaging-hosts`, and every host name resolved to 127.0.0.1
/// (`network.dns.forceResolve`), so the sites' names reach nothing beyond this machine. A missing firefox-esr is an
/// error, not a skip.
public final class FirefoxWindow {
    public static let executable = "/usr/bin/firefox-esr"
    public let process = Process()
    public let profile: URL
    public let logPath: URL

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Starts Firefox on `urls` (one tab each, the first in front) with `environment`'s display and
    /// bus; `home` gets the host manifest naming `host`. The URLs name the local server's port.
    public init(environment: [String: String], home: URL, extensionFolder: URL, extensionID: String, host: URL,
                urls: [String]) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw Failure(description: "\(Self.executable) is missing (scripts/install-deps.sh --test installs Debian's firefox-esr)")
        }
        profile = home.appendingPathComponent("firefox-profile")
        logPath = home.appendingPathComponent("firefox.log")
        let extensions = profile.appendingPathComponent("extensions")
        let hosts = home.appendingPathComponent(".mozilla/native-messaging-hosts")
        for folder in [extensions, hosts] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        // A proxy file: the unpacked extension's folder, under the extension's id.
        try extensionFolder.path.write(to: extensions.appendingPathComponent(extensionID), atomically: true, encoding: .utf8)
        try """
        {"name": "org.screentime.browser", "description": "Screen Time", "path": "\(host.path)", "type": "stdio",
         "allowed_extensions": ["\(extensionID)"]}
        """.write(to: hosts.appendingPathComponent("org.screentime.browser.json"), atomically: true, encoding: .utf8)
        let preferences: [(String, String)] = [
            ("xpinstall.signatures.required", "false"), ("extensions.autoDisableScopes", "0"), ("extensions.enabledScopes", "15"),
            ("network.dns.forceResolve", "\"127.0.0.1\""), ("network.trr.mode", "5"), ("network.proxy.type", "0"),
            ("network.dns.disablePrefetch", "true"), ("network.prefetch-next", "false"),
            ("network.captive-portal-service.enabled", "false"), ("network.connectivity-service.enabled", "false"),
            ("app.update.enabled", "false"), ("app.normandy.enabled", "false"), ("extensions.update.enabled", "false"),
            ("datareporting.policy.dataSubmissionEnabled", "false"), ("datareporting.healthreport.uploadEnabled", "false"),
            ("toolkit.telemetry.enabled", "false"), ("browser.shell.checkDefaultBrowser", "false"),
            ("browser.startup.homepage_override.mstone", "\"ignore\""), ("browser.aboutwelcome.enabled", "false"),
            ("browser.safebrowsing.malware.enabled", "false"), ("browser.safebrowsing.phishing.enabled", "false"),
            ("browser.newtabpage.enabled", "false"), ("browser.tabs.warnOnClose", "false"), ("browser.sessionstore.resume_from_crash", "false"),
            ("extensions.getAddons.cache.enabled", "false"), ("browser.region.network.url", "\"\""), ("dom.disable_open_during_load", "false"),
        ]
        try preferences.map { "user_pref(\"\($0.0)\", \($0.1));" }.joined(separator: "\n")
            .write(to: profile.appendingPathComponent("user.js"), atomically: true, encoding: .utf8)
        _ = FileManager.default.createFile(atPath: logPath.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["--new-instance", "--profile", profile.path] + urls
        var environment = environment
        environment["HOME"] = home.path
        environment["MOZ_CRASHREPORTER_DISABLE"] = "1"
        process.environment = environment
        process.standardOutput = try FileHandle(forWritingTo: logPath)
        process.standardError = process.standardOutput
        try process.run()
    }

    public var log: String { (try? String(contentsOf: logPath, encoding: .utf8)) ?? "" }
    public var pid: Int32 { process.processIdentifier }

    /// Asks Firefox to quit, then kills it after 5 s.
    public func stop() {
        HarnessProcesses.stop(process, timeout: 5)
    }

    deinit { stop() }
}
