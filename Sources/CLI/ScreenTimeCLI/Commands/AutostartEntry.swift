import FoundationEssentials
import ScreenTimeCore

/// The XDG autostart entry that starts the agent at login, in the user's own autostart folder
/// (the same entry install.sh writes from packaging/screentime-autostart.desktop).
struct AutostartEntry {
    let path: String
    /// Where `systemctl --user enable` (install.sh) links the user unit: then the session starts
    /// the agent already, and an entry would only start a second one (which would exit).
    let systemdLink: String

    init(environment: [String: String]) {
        let configHome = XDGPaths.configHome(environment: environment)
        path = configHome + "/autostart/screentime.desktop"
        systemdLink = configHome + "/systemd/user/graphical-session.target.wants/screentime.service"
    }

    var isInstalled: Bool { FileManager.default.fileExists(atPath: path) }
    var startedBySystemd: Bool { FileManager.default.fileExists(atPath: systemdLink) }

    /// Writes the entry running `program agent`.
    func install(program: String) throws {
        do {
            let url = URL(filePath: path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(Self.text(program: program).utf8).write(to: url)
        } catch {
            throw CommandFailure(message: "cannot write the autostart entry \(path): \(error)")
        }
    }

    func remove() throws {
        guard isInstalled else { return }
        do { try FileManager.default.removeItem(atPath: path) } catch {
            throw CommandFailure(message: "cannot remove the autostart entry \(path): \(error)")
        }
    }

    /// The entry, its program quoted as the desktop entry specification asks when it holds
    /// anything but plain path characters.
    static func text(program: String) -> String {
        let plain = program.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "/._+-".contains($0)) }
        let escaped = program.reduce(into: "") { text, character in
            if "\"`$\\".contains(character) { text.append("\\") }
            text.append(character)
        }
        return """
            [Desktop Entry]
            Type=Application
            Name=Screen Time
            Comment=Counts time per app, warns before limits and offers a way to continue
            Exec=\(plain ? program : "\"" + escaped + "\"") agent
            Icon=screentime
            NoDisplay=true
            X-GNOME-Autostart-Phase=Applications

            """
    }
}
