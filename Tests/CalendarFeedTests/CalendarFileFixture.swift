import Foundation

/// A temporary folder of .ics files written byte for byte as given (line breaks, NULs and all),
/// removed when the test ends.
final class CalendarFileFixture {
    let folder = NSTemporaryDirectory() + "calendar-fixture-" + UUID().uuidString

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// Writes `lines` joined by CRLF (each line ended by one) as `name`.
    @discardableResult
    func write(_ name: String, lines: [String]) throws -> String {
        try write(name, bytes: Array(lines.map { $0 + "\r\n" }.joined().utf8))
    }

    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// An event naming Productivity from `start` for an hour (UTC times, `YYYYMMDDTHHMMSS`).
    static func event(_ uid: String, at start: String, summary: String = "Productivity") -> [String] {
        let hour = Int(start.dropFirst(9).prefix(2))! + 1
        let end = start.prefix(9) + (hour < 10 ? "0\(hour)" : "\(hour)") + start.suffix(4)
        return ["BEGIN:VEVENT", "UID:\(uid)", "DTSTART:\(start)Z", "DTEND:\(end)Z", "SUMMARY:\(summary)", "END:VEVENT"]
    }
}
