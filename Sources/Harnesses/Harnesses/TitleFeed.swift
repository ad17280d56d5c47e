import Foundation

/// A FIFO a terminal's shell reads titles from, printing each line as the window's title (OSC 2):
/// how a test renames a terminal's window, as a program running in it would. The shell holds the
/// FIFO open for reading and writing, so a writer never blocks.
public struct TitleFeed {
    public let path: String

    /// Makes the FIFO in `directory`, writable by anyone (sway's clients run as another user).
    init(in directory: URL) throws {
        path = directory.appendingPathComponent("title-\(UUID().uuidString.prefix(8))").path
        guard mkfifo(path, 0o666) == 0, chmod(path, 0o666) == 0 else {
            throw DesktopHarness.Failure.didNotStart("a title feed", "cannot make a FIFO at \(path): errno \(errno)")
        }
    }

    /// The command a terminal runs to take its titles from the feed.
    var shellCommand: [String] {
        ["sh", "-c", #"exec 3<>"$1"; while read -r t <&3; do printf '\033]2;%s\007' "$t"; done"#, "sh", path]
    }

    public func set(_ title: String) throws {
        let descriptor = open(path, O_WRONLY | O_NONBLOCK)
        guard descriptor >= 0 else { throw DesktopHarness.Failure.didNotStart("a title change", "cannot open \(path): errno \(errno)") }
        defer { close(descriptor) }
        let line = Array((title + "\n").utf8)
        guard write(descriptor, line, line.count) == line.count else {
            throw DesktopHarness.Failure.didNotStart("a title change", "writing \(path) failed: errno \(errno)")
        }
    }

    /// `shellCommand` as a script file beside the FIFO, for a terminal that takes a shell's path
    /// rather than a command (weston-terminal's `--shell`).
    func script() throws -> URL {
        let script = URL(fileURLWithPath: path + ".sh")
        let quoted = shellCommand.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }.joined(separator: " ")
        try "#!/bin/sh\nexec \(quoted)\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        return script
    }
}
