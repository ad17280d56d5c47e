import Glibc

enum ProcessEnvironment {
    /// The process's environment as a dictionary (FoundationEssentials has no ProcessInfo).
    static func current() -> [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let text = String(cString: pointer)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            entry += 1
        }
        return result
    }
}

/// One line to stderr, where the browser logs what its hosts say (Chromium's terminal,
/// Firefox's browser console): never stdout, which is the browser's.
func logLine(_ text: String) {
    let line = "screentime-browser-host: \(text)\n"
    _ = line.withCString { write(2, $0, strlen($0)) }
}
