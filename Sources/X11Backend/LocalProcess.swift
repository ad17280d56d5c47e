import Glibc

/// What this machine can tell about a window's process, through /proc.
enum LocalProcess {
    /// Basename of `/proc/PID/exe`, nil when unreadable (another user's process, or gone).
    static func executableName(pid: Int32) -> String? {
        guard pid > 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/\(pid)/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // A replaced binary reads as "/usr/bin/app (deleted)".
        let name = path.split(separator: "/").last.map(String.init) ?? path
        return name.hasSuffix(" (deleted)") ? String(name.dropLast(" (deleted)".count)) : name
    }

    /// This machine's host name, to tell whether a window's `_NET_WM_PID` is a local pid.
    static let hostName: String? = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()
}
