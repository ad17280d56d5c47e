import Glibc
import SystemErrors
import ScreenTimeCore

/// Lines to stderr (journald when run as a systemd user service), one per event worth knowing.
public enum Log {
    public static func info(_ message: String) { write("screentime: \(message)\n") }
    public static func warning(_ message: String) { write("screentime: warning: \(message)\n") }
    public static func error(_ message: String) { write("screentime: error: \(message)\n") }

    private static func write(_ line: String) {
        StandardStream.error.write(TerminalText.printable(line))
    }
}
