/// The app ids a process declares by how it was started, read from what `/proc` shows of it: the
/// Flatpak sandbox's `.flatpak-info`, the Snap's cgroup or executable path, the systemd unit a
/// desktop launcher made for it (XDG "desktop application" naming: `app-[LAUNCHER-]ID-RANDOM.scope`,
/// `app-[LAUNCHER-]ID[@RANDOM].service`, dashes in ID escaped as `\x2d`), and the entry GLib's
/// launcher (`gtk-launch`, every GIO-based menu or dock) names in the environment it starts the
/// program with.
public struct ProcessAppIdentity: Equatable, Sendable {
    /// `/proc/PID/root/.flatpak-info`, when readable.
    public var flatpakInfo: String?
    /// `/proc/PID/cgroup`.
    public var cgroup: String?
    /// `/proc/PPID/cgroup` of the parent process, when readable.
    public var parentCGroup: String?
    /// `/proc/PID/exe`'s target.
    public var executablePath: String?
    /// The process's own pid, and `GIO_LAUNCHED_DESKTOP_FILE` and `GIO_LAUNCHED_DESKTOP_FILE_PID`
    /// from the environment it was started with (`/proc/PID/environ`).
    public var pid: Int32?
    public var launchedDesktopFile: String?
    public var launchedDesktopFilePID: String?

    public init(flatpakInfo: String? = nil, cgroup: String? = nil, parentCGroup: String? = nil,
                executablePath: String? = nil, pid: Int32? = nil, launchedDesktopFile: String? = nil,
                launchedDesktopFilePID: String? = nil) {
        self.flatpakInfo = flatpakInfo
        self.cgroup = cgroup
        self.parentCGroup = parentCGroup
        self.executablePath = executablePath
        self.pid = pid
        self.launchedDesktopFile = launchedDesktopFile
        self.launchedDesktopFilePID = launchedDesktopFilePID
    }

    /// The declared ids, strongest first: the Flatpak id, the Snap's desktop id (`NAME_APP`, or
    /// the snap's name from its executable path), the launcher's unit's desktop id, the entry GLib's
    /// launcher started the process from.
    public var declaredIDs: [String] {
        var ids: [String] = []
        if let flatpak = flatpakInfo.flatMap(Self.flatpakID(fromInfo:)) { ids.append(flatpak) }
        let unit = cgroup.flatMap(Self.unitName(fromCGroup:))
        if let snap = unit.flatMap(Self.snapDesktopID(fromUnit:)) ?? executablePath.flatMap(Self.snapName(fromExecutable:)) {
            ids.append(snap)
        }
        // A process that merely inherited its parent's unit (a program started from a terminal
        // that runs in the terminal's scope) is not the app the launcher started.
        if let unit, let id = Self.desktopID(fromUnit: unit), parentCGroup.flatMap(Self.unitName(fromCGroup:)) != unit {
            ids.append(id)
        }
        // Children inherit the variables with the launched program's pid (a shell in a terminal
        // the menu started): only the program itself was launched from the entry.
        if let file = launchedDesktopFile, let pid, launchedDesktopFilePID == String(pid),
           let id = Self.desktopID(fromPath: file) {
            ids.append(id)
        }
        return ids.reduce(into: []) { unique, id in if !unique.contains(id) { unique.append(id) } }
    }

    /// `name=` in `[Application]`.
    static func flatpakID(fromInfo text: String) -> String? {
        guard let file = try? KeyFile(parsing: text), let name = file.value("name", in: "Application"),
              !name.isEmpty else { return nil }
        return name
    }

    /// The last component of the unified (`0::`) or systemd (`name=systemd`) hierarchy's path.
    static func unitName(fromCGroup text: String) -> String? {
        let lines = text.split(separator: "\n")
        let line = lines.first { $0.hasPrefix("0::") } ?? lines.first { $0.contains(":name=systemd:") }
        guard let path = line?.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false).last,
              let last = path.split(separator: "/").last else { return nil }
        return String(last)
    }

    /// `snap.NAME.APP-UUID.scope`, `snap.NAME.APP.UUID.scope` or `snap.NAME.APP.service` → `NAME_APP`.
    static func snapDesktopID(fromUnit unit: String) -> String? {
        guard unit.hasPrefix("snap.") else { return nil }
        let parts = unit.dropFirst("snap.".count).split(separator: ".")
        guard parts.count >= 3, let name = parts.first else { return nil }
        var app = Substring(parts[1])
        if app.count > 37, case let uuidStart = app.index(app.endIndex, offsetBy: -37), app[uuidStart] == "-",
           isUUID(app[app.index(after: uuidStart)...]) {
            app = app[..<uuidStart]
        }
        return app.isEmpty ? nil : "\(name)_\(app)"
    }

    /// `/snap/NAME/REVISION/...` → NAME.
    static func snapName(fromExecutable path: String) -> String? {
        let parts = path.split(separator: "/")
        guard path.hasPrefix("/snap/"), parts.count >= 3 else { return nil }
        return String(parts[1])
    }

    /// The desktop id in a launcher's unit name, unescaped; nil for any other unit.
    static func desktopID(fromUnit unit: String) -> String? {
        guard unit.hasPrefix("app-") else { return nil }
        var body = unit.dropFirst("app-".count)
        var parts: [Substring]
        if body.hasSuffix(".scope") {
            body = body.dropLast(".scope".count)
            parts = body.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count >= 2 else { return nil }
            parts.removeLast() // RANDOM
        } else if body.hasSuffix(".service") {
            body = body.dropLast(".service".count)
            if let at = body.firstIndex(of: "@") { body = body[..<at] }
            parts = body.split(separator: "-", omittingEmptySubsequences: false)
        } else {
            return nil
        }
        guard let id = parts.last, !id.isEmpty else { return nil }
        return unescaped(id)
    }

    /// An entry file's desktop id: its path below the last `applications` folder with `/` as `-`
    /// (`/usr/share/applications/kde4/kate.desktop` is `kde4-kate`), else its file name (an entry
    /// launched from elsewhere, `gio launch ./app.desktop`), without `.desktop`; nil for any other file.
    static func desktopID(fromPath path: String) -> String? {
        guard path.hasSuffix(".desktop") else { return nil }
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        let below = components.lastIndex(of: "applications").map { components[($0 + 1)...] } ?? components.suffix(1)
        let id = below.joined(separator: "-").dropLast(".desktop".count)
        return id.isEmpty ? nil : String(id)
    }

    /// systemd's unit-name escaping: `\xNN` is the byte NN.
    static func unescaped(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var rest = Array(text.utf8)[...]
        while let byte = rest.first {
            if byte == UInt8(ascii: "\\"), rest.count >= 4, rest[rest.startIndex + 1] == UInt8(ascii: "x"),
               let value = UInt8(String(decoding: rest[(rest.startIndex + 2)..<(rest.startIndex + 4)], as: UTF8.self), radix: 16) {
                bytes.append(value)
                rest = rest.dropFirst(4)
            } else {
                bytes.append(byte)
                rest = rest.dropFirst()
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isUUID(_ text: Substring) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}
