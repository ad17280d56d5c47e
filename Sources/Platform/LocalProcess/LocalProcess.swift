import Glibc
import ScreenTimeCore
import SystemErrors

/// What this machine can tell about a window's process, through /proc.
public enum LocalProcess {
    /// `/proc/PID/exe`'s target, nil when unreadable (another user's process, or gone); a replaced binary reads as "/usr/bin/app (deleted)", without the mark.
    public static func executablePath(pid: Int32) -> String? {
        guard pid > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.hasSuffix(" (deleted)") ? String(path.dropLast(" (deleted)".count)) : path
    }

    /// How the process was started, as far as /proc tells (Flatpak, Snap, a launcher's unit, the
    /// entry GLib's launcher named in its environment).
    public static func identity(pid: Int32) -> ProcessAppIdentity {
        guard pid > 0 else { return ProcessAppIdentity() }
        let launcher = environmentValues(pid: pid, ["GIO_LAUNCHED_DESKTOP_FILE", "GIO_LAUNCHED_DESKTOP_FILE_PID"])
        return ProcessAppIdentity(flatpakInfo: contents("/proc/\(pid)/root/.flatpak-info"),
                                  cgroup: contents("/proc/\(pid)/cgroup"),
                                  parentCGroup: parentPID(of: pid).flatMap { contents("/proc/\($0)/cgroup") },
                                  executablePath: executablePath(pid: pid), pid: pid,
                                  launchedDesktopFile: launcher["GIO_LAUNCHED_DESKTOP_FILE"],
                                  launchedDesktopFilePID: launcher["GIO_LAUNCHED_DESKTOP_FILE_PID"])
    }

    /// The values of `names` in the environment the process was started with
    /// (`/proc/PID/environ`: `NAME=value` entries, each ending in a NUL), read a page at a time
    /// and kept only for those names; the first entry of a name counts, as getenv's does. Reading
    /// stops at `limit` bytes (the kernel's bound on a program's arguments and environment).
    public static func environmentValues(pid: Int32, _ names: Set<String>, limit: Int = 2 << 20) -> [String: String] {
        guard pid > 0 else { return [:] }
        let descriptor = open("/proc/\(pid)/environ", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [:] }
        defer { close(descriptor) }
        let longest = (names.map(\.utf8.count).max() ?? 0) + 1 + 4096
        var values: [String: String] = [:]
        var entry: [UInt8] = []
        var overlong = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        var total = 0
        func take(_ entry: [UInt8]) {
            guard let equals = entry.firstIndex(of: UInt8(ascii: "=")) else { return }
            let name = String(decoding: entry[..<equals], as: UTF8.self)
            if names.contains(name), values[name] == nil {
                values[name] = String(decoding: entry[(equals + 1)...], as: UTF8.self)
            }
        }
        while total < limit, values.count < names.count {
            guard let count = try? retryingInterrupts({ read(descriptor, &buffer, buffer.count) }), count > 0 else { break }
            total += count
            for byte in buffer[0..<count] {
                if byte == 0 {
                    if !overlong { take(entry) }
                    entry.removeAll(keepingCapacity: true)
                    overlong = false
                } else if entry.count < longest {
                    entry.append(byte)
                } else {
                    // Longer than any wanted name with a path: skipped, never kept whole.
                    overlong = true
                }
            }
        }
        return values
    }

    /// The fourth field of `/proc/PID/stat`, after the command name in parentheses (which may
    /// itself hold spaces and parentheses).
    public static func parentPID(of pid: Int32) -> Int32? {
        guard let stat = contents("/proc/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    /// A small file's text, nil when it cannot be read (absent, another user's, the process gone).
    public static func contents(_ path: String, limit: Int = 65536) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while bytes.count < limit {
            guard let count = try? retryingInterrupts({ read(descriptor, &buffer, buffer.count) }), count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// This machine's host name, to tell whether a window's `_NET_WM_PID` is a local pid.
    public static let hostName: String? = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}

extension WindowFacts {
    /// A Wayland window's facts: its app_id goes through the same identity rules as WM_CLASS (the
    /// class part), and a local process adds what /proc says of how it was started (Flatpak,
    /// Snap, a launcher's scope).
    public static func wayland(window: WindowID, appID: String?, pid: Int32?, title: String,
                               role: WindowRole = .normal) -> WindowFacts {
        let process = pid.map(LocalProcess.identity(pid:))
        let appID = appID.flatMap { $0.isEmpty ? nil : $0 }
        return WindowFacts(window: window, wmClass: appID, title: title, pid: pid,
                           executable: process?.executablePath.flatMap { $0.split(separator: "/").last.map(String.init) },
                           declaredIDs: process?.declaredIDs ?? [], role: role)
    }
}
