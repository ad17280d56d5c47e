import DoNotDisturb
import AgentControl
import DisplayFilter
import Glibc
import FoundationEssentials
import ScreenTimeCore
import SessionBus
import UsageStore
import X11Backend

/// What this desktop supports, for `screentime doctor`: each line a finding, and whether it is a problem.
public enum DesktopProbe {
    public struct Finding: Equatable {
        public var topic: String
        public var detail: String
        public var ok: Bool
    }

    public static func run(environment: [String: String]) -> [Finding] {
        var findings: [Finding] = []
        let sessionType = environment["XDG_SESSION_TYPE"] ?? (environment["WAYLAND_DISPLAY"] != nil ? "wayland" : environment["DISPLAY"] != nil ? "x11" : "none")
        findings.append(Finding(topic: "session", detail: sessionType, ok: sessionType != "none"))
        findings += probeBus(environment: environment)
        findings += probeCapabilities(environment: environment)
        if SessionFacts(environment: environment).hasX11Display && !SessionFacts(environment: environment).isWayland {
            findings += probeX11(environment: environment)
        }
        findings += probeLogind(environment: environment)
        findings.append(probeCard(environment: environment))
        let configPath = XDGPaths.configFile(environment: environment)
        do {
            _ = try ConfigFile.settings(at: configPath)
            findings.append(Finding(topic: "config", detail: "\(configPath): valid", ok: true))
        } catch {
            findings.append(Finding(topic: "config", detail: "\(error)", ok: false))
        }
        findings.append(probeStore(environment: environment))
        let autostart = XDGPaths.home(environment: environment) + "/.config/autostart/screentime.desktop"
        let unit = XDGPaths.home(environment: environment) + "/.config/systemd/user/screentime.service"
        let installed = ["/etc/xdg/autostart/screentime.desktop", "/usr/lib/systemd/user/screentime.service", autostart, unit]
            .filter { FileManager.default.fileExists(atPath: $0) }
        findings.append(Finding(topic: "autostart", detail: installed.isEmpty ? "not installed (run the README's install command)" : installed.joined(separator: ", "),
                                ok: !installed.isEmpty))
        return findings
    }

    /// Which provider fills each capability and why: the running agent's choice, else the choice
    /// this session would get now (providers started and closed again). A capability nothing fills
    /// says what the user can do (the candidates' reasons).
    static func probeCapabilities(environment: [String: String]) -> [Finding] {
        let choices: [String: String]
        if let status = try? AgentClient(environment: environment).status() {
            choices = status.backends
        } else {
            choices = DesktopConnector.withProviders(environment: environment, wanted: Set(DesktopCapability.allCases),
                                                     restoringScreen: false) { desktop in
                Dictionary(uniqueKeysWithValues: desktop.choices.map { ($0.capability.rawValue, $0.summary) })
            }
        }
        return DesktopCapability.allCases.map { capability in
            let summary = choices[capability.rawValue] ?? "none"
            return Finding(topic: capability.rawValue, detail: summary, ok: !summary.hasPrefix("none"))
        }
    }

    static func probeX11(environment: [String: String]) -> [Finding] {
        let connection: X11Connection
        do { connection = try X11Connection(displayName: environment["DISPLAY"]) } catch {
            return [Finding(topic: "X11", detail: "cannot open the display: \(error)", ok: false)]
        }
        defer { connection.close() }
        var findings: [Finding] = []
        do {
            let wm = try WMCapabilities.probe(connection)
            findings.append(Finding(topic: "window manager", detail: "\(wm.windowManagerName ?? "unnamed")"
                                    + (wm.hasEWMH ? ", EWMH" : ", no EWMH"), ok: wm.hasEWMH))
            findings.append(Finding(topic: "RandR", detail: wm.randrVersion ?? "missing", ok: wm.randrVersion != nil))
        } catch {
            findings.append(Finding(topic: "X11", detail: "\(error)", ok: false))
        }
        do {
            let filter = try DisplayFilterController(displayName: environment["DISPLAY"],
                                                     runtimeDirectory: XDGPaths.runtimeDirectory(environment: environment, uid: getuid()))
            defer { filter.close() }
            try filter.probe()
            // Productivity's grayscale is the filter that needs the most of a driver.
            for output in filter.report(for: .grayscale) {
                findings.append(Finding(topic: "display \(output.name)", detail: output.description, ok: output.limitations.isEmpty))
            }
        } catch {
            findings.append(Finding(topic: "display", detail: "\(error)", ok: false))
        }
        return findings
    }

    static func probeBus(environment: [String: String]) -> [Finding] {
        let connection: BusConnection
        do { connection = try BusConnection(address: environment["DBUS_SESSION_BUS_ADDRESS"]) } catch {
            return [Finding(topic: "session bus", detail: "cannot connect: \(error)", ok: false)]
        }
        defer { connection.close() }
        var findings = [Finding(topic: "session bus", detail: "connected", ok: true)]
        let client = try? NotificationsClient(connection: connection)
        let server = client.flatMap { DoNotDisturbChooser.serverInfo(of: $0, on: connection) }
        if let client, let server {
            let caps = client.capabilities
            findings.append(Finding(topic: "notifications", detail: "\(server.name) \(server.version) (\(server.vendor)); "
                                    + "actions: \(caps.contains("actions") ? "yes" : "no (use `screentime continue APP`)"), "
                                    + "body markup: \(caps.contains("body-markup") ? "yes" : "no")", ok: true))
        } else {
            findings.append(Finding(topic: "notifications", detail: "no notification server: countdowns and choices cannot be shown", ok: false))
        }
        let silencing = DoNotDisturbChooser.finding(for: server, connection: connection, environment: environment)
        findings.append(Finding(topic: "do-not-disturb", detail: silencing.detail, ok: silencing.ok))
        let running = (try? connection.nameHasOwner(AgentInterface.busName)) ?? false
        findings.append(Finding(topic: "agent", detail: running ? "running" : "not running (start it with `screentime agent`)", ok: running))
        // The lock: logind's session lock (see "logind"), and the desktop's screen saver service.
        let savers = ScreenSaverWatch.interfaces.filter { (try? connection.nameHasOwner($0)) == true }
        findings.append(Finding(topic: "lock", detail: savers.isEmpty
                                ? "no screen saver service on the session bus: a lock is seen through logind only"
                                : "ActiveChanged of " + savers.joined(separator: ", "), ok: !savers.isEmpty))
        return findings
    }

    /// Whether usage is being saved: the running agent's word, else whether the file can be written.
    static func probeStore(environment: [String: String]) -> Finding {
        let path = XDGPaths.databaseFile(environment: environment)
        if let status = try? AgentClient(environment: environment).status() {
            if let problem = status.savingProblem { return Finding(topic: "usage saving", detail: "failing \(problem)", ok: false) }
            return Finding(topic: "usage saving", detail: "\(path): saved by the agent", ok: true)
        }
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        if FileManager.default.fileExists(atPath: directory) && !FileManager.default.isWritableFile(atPath: directory) {
            return Finding(topic: "usage saving", detail: "the directory \(directory) is not writable", ok: false)
        }
        guard FileManager.default.fileExists(atPath: path) else {
            return Finding(topic: "usage saving", detail: "\(path): not created yet", ok: true)
        }
        do {
            _ = try UsageDatabase(path: path, readOnly: true)
        } catch {
            return Finding(topic: "usage saving", detail: "\(error)", ok: false)
        }
        guard FileManager.default.isWritableFile(atPath: path) else {
            return Finding(topic: "usage saving", detail: "\(path) is read-only", ok: false)
        }
        return Finding(topic: "usage saving", detail: "\(path): writable", ok: true)
    }
}
