import Foundation
import SessionBus

/// Acts as the user on the harness's dunst: chooses a notification's action by its label.
///
/// dunst 1.9 offers actions through its context menu (D-Bus `org.dunstproject.cmd0.ContextMenuCall`,
/// what `dunstctl context` calls): it pipes one line per action of each displayed notification,
/// `#<label> (<summary>) [<id>,<key>]`, into the `dmenu` command of its dunstrc and invokes the
/// action of the line that command prints. Here `dmenu` is a small script that prints the line
/// whose label and id were written to its `choice` file, so the action goes through dunst's own
/// ActionInvoked path to the client that sent Notify.
public final class DunstControl {
    public let menuDirectory: URL
    private let connection: BusConnection
    private var pid: pid_t?

    /// The dunstrc the harness needs for `chooseAction`: the harness's settings (notifications stay
    /// until closed) with `dmenu` pointing at the menu script in `menuDirectory`.
    public static func dunstrc(menuDirectory: String) -> String {
        """
        [global]
            timeout = 0
            markup = full
            format = "%s\\n%b"
            dmenu = \(menuDirectory)/dmenu
            history_length = 100
        """
    }

    /// Writes the dmenu stand-in into `menuDirectory` (created if needed).
    public static func installMenu(in menuDirectory: String) throws {
        try FileManager.default.createDirectory(atPath: menuDirectory, withIntermediateDirectories: true)
        let path = menuDirectory + "/dmenu"
        try menuScript.write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }

    // Records the menu for diagnostics; `case` patterns in quotes match the label literally.
    private static let menuScript = #"""
        #!/bin/sh
        # dmenu stand-in for dunst's context menu in tests: prints the line of the action named in "choice".
        dir=$(dirname "$0")
        label=$(sed -n 1p "$dir/choice")
        id=$(sed -n 2p "$dir/choice")
        cat > "$dir/menu"
        answer=""
        # dunst ends the last line without a newline: read it too.
        while IFS= read -r line || [ -n "$line" ]; do
            case "$line" in
                "#$label ("*"[$id,"*) answer="$line"; break ;;
                "#$label ("*) [ -z "$id" ] && { answer="$line"; break; } ;;
            esac
        done < "$dir/menu"
        printf '%s\n' "$answer"
        printf '%s\n' "$answer" > "$dir/chosen.tmp" && mv "$dir/chosen.tmp" "$dir/chosen"
        """#

    /// Controls the harness's dunst, whose dunstrc points its menu at `dunst-menu` (the harness
    /// installs it with `installMenu(in:)`).
    public init(desktop: AgentDesktop) throws {
        menuDirectory = desktop.root.appendingPathComponent("dunst-menu")
        connection = try BusConnection(address: desktop.busAddress)
    }

    public enum Failure: Error, CustomStringConvertible {
        case menuNotShown(String)
        case noSuchAction(label: String, id: UInt32, menu: String)
        public var description: String {
            switch self {
            case .menuNotShown(let why): return "dunst did not open its context menu: \(why)"
            case .noSuchAction(let label, let id, let menu):
                return "dunst's menu has no action \"\(label)\" for notification \(id); menu was:\n\(menu)"
            }
        }
    }

    /// Chooses the action labelled `label` on notification `id` (nil: the first showing that
    /// label), as a user would in dunst's menu. Returns once dunst has been given the choice; the
    /// ActionInvoked signal follows.
    public func chooseAction(label: String, notification id: UInt32?, timeout: TimeInterval = 5) throws {
        let chosen = menuDirectory.appendingPathComponent("chosen")
        try? FileManager.default.removeItem(at: chosen)
        try "\(label)\n\(id.map(String.init) ?? "")\n".write(to: menuDirectory.appendingPathComponent("choice"), atomically: true, encoding: .utf8)
        _ = try connection.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                interface: "org.dunstproject.cmd0", method: "ContextMenuCall")
        guard Wait.poll(timeout: timeout, every: 0.01, { FileManager.default.fileExists(atPath: chosen.path) }) else {
            throw Failure.menuNotShown("no answer from the menu script within \(timeout) s")
        }
        let answer = (try? String(contentsOf: chosen, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if answer.isEmpty {
            let menu = (try? String(contentsOf: menuDirectory.appendingPathComponent("menu"), encoding: .utf8)) ?? ""
            throw Failure.noSuchAction(label: label, id: id ?? 0, menu: menu)
        }
    }

    /// Closes every notification dunst shows (`dunstctl close-all`): the harness's dunst keeps
    /// them until closed, so a test choosing by label alone starts from none.
    public func closeAll() throws {
        _ = try connection.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                interface: "org.dunstproject.cmd0", method: "NotificationCloseAll")
    }

    /// dunst's default action on the newest displayed notification (`dunstctl action 0`).
    public func invokeDefaultAction() throws {
        _ = try connection.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                interface: "org.dunstproject.cmd0", method: "NotificationAction", arguments: [.uint32(0)])
    }

    /// Stops dunst with SIGSTOP, as a hung notification server: it keeps its bus name and answers
    /// nothing until `resume()`. Callers resume it in a `defer`, since the harness's dunst is shared.
    public func pause() throws { kill(try processID(), SIGSTOP) }

    public func resume() throws { kill(try processID(), SIGCONT) }

    /// dunst's process, as the bus knows it (the harness keeps its own handle private).
    private func processID() throws -> pid_t {
        if let pid = pid { return pid }
        let reply = try connection.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                        interface: "org.freedesktop.DBus", method: "GetConnectionUnixProcessID",
                                        arguments: [.string("org.freedesktop.Notifications")])
        guard let found = reply.first?.uint32Value else {
            throw BusError.unexpectedReply(context: "GetConnectionUnixProcessID", signature: reply.signature)
        }
        pid = pid_t(found)
        return pid_t(found)
    }

    /// Whether dunst is paused (`dunstctl is-paused`): it then holds every notification, shown
    /// ones included, until resumed.
    public func isPaused() throws -> Bool {
        let reply = try connection.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                        interface: "org.freedesktop.DBus.Properties", method: "Get",
                                        arguments: [.string("org.dunstproject.cmd0"), .string("paused")])
        guard let paused = reply.first?.boolValue else { throw BusError.unexpectedReply(context: "paused", signature: reply.signature) }
        return paused
    }

    /// Pauses or resumes dunst as the user does (`dunstctl set-paused`): resumed, it shows what it held.
    public func setPaused(_ paused: Bool) throws {
        _ = try connection.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                interface: "org.freedesktop.DBus.Properties", method: "Set",
                                arguments: [.string("org.dunstproject.cmd0"), .string("paused"), .variant(.bool(paused))])
    }

    /// Notifications dunst is showing now (its `displayedLength` property).
    public func displayedCount() throws -> UInt32 {
        let reply = try connection.call(destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
                                        interface: "org.freedesktop.DBus.Properties", method: "Get",
                                        arguments: [.string("org.dunstproject.cmd0"), .string("displayedLength")])
        guard let count = reply.first?.uint32Value else { throw BusError.unexpectedReply(context: "displayedLength", signature: reply.signature) }
        return count
    }
}
