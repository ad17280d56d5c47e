/// The app ids a process declares by how it was started, read from what `/proc` shows of it: the
/// Flatpak sandbox's `.flatpak-info`, the Snap's cgroup or executable path, and the systemd unit a
/// desktop launcher made for it (XDG "desktop application" naming: `app-[LAUNCHER-]ID-RANDOM.scope`,
/// `app-[LAUNCHER-]ID[@RANDOM].service`, dashes in ID escaped as `\x2d`).
public struct ProcessAppIdentity: Equatable, Sendable {
    /// `/proc/PID/root/.flatpak-info`, when readable.
    public var flatpakInfo: String?
    /// `/proc/PID/cgroup`.
    public var cgroup: String?
    /// `/proc/PPID/cgroup` of the parent process, when readable.
    public var parentCGroup: String?
    /// `/proc/PID/exe`'s target.
    public var executablePath: String?

    public init(flatpakInfo: String? = nil, cgroup: String? = nil, parentCGroup: String? = nil,
                executablePath: String? = nil) {
        self.flatpakInfo = flatpakInfo
        self.cgroup = cgroup
        self.parentCGroup = parentCGroup
        self.executablePath = executablePath
    }

    /// The declared ids, strongest first: the Flatpak id, the Snap's desktop id (`NAME_APP`, or
    /// the snap's name from its executable path), the launcher's unit's desktop id.
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
