import FoundationEssentials
import ScreenTimeCore
import SessionBus

/// `doctor`'s lines about the browsers on the machine: for each one installed, whether the
/// extension and its native host's manifest are in place, and whether the extension is
/// connected to the running agent now (`Browsers()`), with what to do when it is not.
enum BrowserProbe {
    struct Browser {
        var name: String
        /// The extension's name for it (`BrowserHello`'s).
        var hello: String
        var executables: [String]
        /// Where an installed host manifest may be: system-wide, then the user's.
        var manifests: [String]
    }

    static let hostManifest = "org.screentime.browser.json"

    static func browsers(home: String, config: String) -> [Browser] {
        [Browser(name: "Chromium", hello: "chromium", executables: ["/usr/bin/chromium"],
                 manifests: ["/etc/chromium/native-messaging-hosts/", config + "/chromium/NativeMessagingHosts/"].map { $0 + hostManifest }),
         Browser(name: "Firefox", hello: "firefox", executables: ["/usr/bin/firefox-esr", "/usr/bin/firefox"],
                 manifests: ["/usr/lib/mozilla/native-messaging-hosts/", home + "/.mozilla/native-messaging-hosts/"].map { $0 + hostManifest })]
    }

    static func run(environment: [String: String]) -> [DesktopProbe.Finding] {
        let home = XDGPaths.home(environment: environment)
        let config = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? home + "/.config"
        let installed = browsers(home: home, config: config).filter { $0.executables.contains(where: FileManager.default.fileExists(atPath:)) }
        guard !installed.isEmpty else { return [] }
        let connected = connectedBrowsers(environment: environment)
        return installed.map { browser in
            let topic = browser.hello
            if let connected, connected.contains(browser.hello) {
                return DesktopProbe.Finding(topic: topic, detail: "the extension is connected: sites are counted and restricted in their tabs", ok: true)
            }
            guard browser.manifests.contains(where: FileManager.default.fileExists(atPath:)) else {
                return DesktopProbe.Finding(topic: topic, detail: "the extension is not installed (run ./install.sh, as root for every user): sites count as \(browser.name) through title rules only", ok: false)
            }
            let why = connected == nil ? "the agent is not running" : "\(browser.name) is not running, or has not loaded the extension (restart it; as a user, load it once in its extensions page)"
            return DesktopProbe.Finding(topic: topic, detail: "the extension is installed but not connected: \(why)", ok: false)
        }
    }

    /// The browsers whose extension the running agent hears; nil without an agent.
    static func connectedBrowsers(environment: [String: String]) -> Set<String>? {
        guard let connection = try? BusConnection(address: environment["DBUS_SESSION_BUS_ADDRESS"]) else { return nil }
        defer { connection.close() }
        guard let json = try? connection.call(destination: AgentInterface.busName, path: AgentInterface.objectPath,
                                              interface: AgentInterface.interface, method: AgentInterface.Method.browsers,
                                              timeout: .seconds(2), autoStart: false).first?.stringValue,
              let listing = try? JSONDecoder().decode([Entry].self, from: Data(json.utf8)) else { return nil }
        return Set(listing.map(\.name))
    }

    private struct Entry: Decodable { var name: String }
}
