import Glibc

/// The project's executables are installed side by side (`screentime`, `screentime-agent`,
/// `screentime-reader`, `screentime-card`): each finds the others beside itself.
public enum SiblingExecutable {
    /// `/proc/self/exe`'s directory + `/` + `name`.
    public static func path(named name: String = "screentime") -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let own = length > 0 ? String(cString: buffer) : CommandLine.arguments[0]
        return String(own[..<(own.lastIndex(of: "/") ?? own.startIndex)]) + "/" + name
    }
}
