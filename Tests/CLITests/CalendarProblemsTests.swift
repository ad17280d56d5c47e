import Foundation
import Harnesses
import XCTest

/// `calendar list` and `doctor` name what is wrong in each calendar: file, line, event UID, message.
final class CalendarProblemsTests: XCTestCase {
    var home: URL!
    var environment: [String: String] = [:]

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home.appendingPathComponent("calendars"), withIntermediateDirectories: true)
        // SCREENTIME_NOW: 2026-03-09 00:00 UTC, the week of the events.
        environment = ["HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin", "SCREENTIME_NOW": "1773014400",
                       "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(home.path)/no-bus"]
        addTeardownBlock { [home] in try? FileManager.default.removeItem(at: home!) }
    }

    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try AgentProcess.run(arguments, environment: environment)
    }

    func write(_ name: String, _ lines: [String]) throws {
        try Data(lines.map { $0 + "\r\n" }.joined().utf8).write(to: home.appendingPathComponent("calendars/" + name))
    }

    /// A folder with a file whose event lacks its END and another whose end is before its start,
    /// a file with a NUL byte and a line libical skips, and a calendar file that is gone.
    func addCalendars() throws {
        let header = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//screentime tests//EN"]
        try write("work.ics", header + [
            "BEGIN:VEVENT", "UID:review@example", "DTSTART:20260310T080000Z", "DTEND:20260310T090000Z", "SUMMARY:Productivity: review",
            "BEGIN:VEVENT", "UID:late@example", "DTSTART:20260311T100000Z", "DTEND:20260311T090000Z", "SUMMARY:Productivity: late", "END:VEVENT",
            "END:VCALENDAR",
        ])
        try write("damaged.ics", header + [
            "BEGIN:VEVENT", "UID:nul@example", "DTSTART:20260312T080000Z", "DTEND:20260312T090000Z", "SUMMARY:Social\u{0} lunch",
            "this line lost its property name", "END:VEVENT", "END:VCALENDAR",
        ])
        try write("gone.ics", header + ["END:VCALENDAR"])
        XCTAssertEqual(try run(["calendar", "add", home.appendingPathComponent("calendars").path]).status, 0)
        XCTAssertEqual(try run(["calendar", "add", home.appendingPathComponent("calendars/gone.ics").path]).status, 0)
        try FileManager.default.removeItem(at: home.appendingPathComponent("calendars/gone.ics"))
    }

    func testCalendarListNamesEachProblemUnderItsCalendar() throws {
        try addCalendars()
        let result = try run(["calendar", "list"])
        XCTAssertEqual(result.status, 0, result.err)
        try assertGolden("calendar-list.txt", result.out.replacingOccurrences(of: home.path, with: "$HOME"))
    }

    func testDoctorHasACalendarLineNamingTheProblems() throws {
        try addCalendars()
        let result = try run(["doctor"])
        XCTAssertEqual(result.status, 0, result.err)
        let lines = result.out.replacingOccurrences(of: home.path, with: "$HOME").split(separator: "\n", omittingEmptySubsequences: false)
        let calendars = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("warn calendars") }, result.out)
        try assertGolden("doctor-calendars.txt", lines[calendars...].joined(separator: "\n"))
    }

    func testDoctorSaysWhenThereAreNoCalendars() throws {
        let result = try run(["doctor"])
        let line = result.out.split(separator: "\n").first { $0.hasPrefix("ok   calendars ") }
        XCTAssertEqual(line?.split(separator: " ", maxSplits: 2).last?.drop { $0 == " " }, "none (add one with `screentime calendar add PATH`)", result.out)
    }
}
