import Foundation
import Harnesses
import XCTest

/// Schedule and calendar commands edit the config without an agent; the mode commands need one
/// (the modes they leave on a running agent: AgentTests/CLIAgainstAgentModeTests).
final class ModeCommandsTests: XCTestCase {
    var home: URL!
    var environment: [String: String] = [:]
    var config: URL { home.appendingPathComponent(".config/screentime/config") }

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        environment = ["HOME": home.path, "TZ": Self.middayZone, "PATH": "/usr/bin:/bin",
                       "DBUS_SESSION_BUS_ADDRESS": "unix:path=\(home.path)/no-bus"]
        addTeardownBlock { [home] in try? FileManager.default.removeItem(at: home!) }
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "# mine\n[limits]\nfirefox = 2h\n".write(to: config, atomically: true, encoding: .utf8)
    }

    func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        try AgentProcess.run(arguments, environment: environment)
    }

    func testScheduleAddListRemove() throws {
        XCTAssertEqual(try run(["schedule", "list"]).out, "Nothing scheduled. Add with `screentime schedule add MODE --at WHEN`.\n")
        XCTAssertEqual(try run(["schedule", "add", "productivity", "--at", "09:00", "--for", "3h", "--every", "mon-fri"]).out,
                       "productivity-1: productivity at 09:00 for 3h every mon-fri\n")
        XCTAssertEqual(try run(["schedule", "add", "Wind Down", "--at", "2099-12-01 21:00", "--for=90m"]).out,
                       "wind-down-1: wind-down on 2099-12-01 at 21:00 for 1h30m\n")
        XCTAssertEqual(try run(["schedule", "add", "productivity", "--at", "14:00", "--every", "weekends"]).out,
                       "productivity-2: productivity at 14:00 for 1h every sat-sun\n")
        XCTAssertEqual(try run(["schedule", "list"]).out, """
            productivity-1  productivity at 09:00 for 3h every mon-fri
            wind-down-1     wind-down on 2099-12-01 at 21:00 for 1h30m
            productivity-2  productivity at 14:00 for 1h every sat-sun

            """)
        XCTAssertEqual(try run(["schedule", "rm", "productivity-1"]).out, "productivity-1: removed\n")
        let missing = try run(["schedule", "rm", "productivity-1"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.err, "screentime schedule: nothing is scheduled as `productivity-1` (see `screentime schedule list`)\n")
        XCTAssertEqual(try String(contentsOf: config, encoding: .utf8), """
            # mine
            [limits]
            firefox = 2h

            [schedule]
            wind-down-1 = wind-down 2099-12-01 21:00 1h30m
            productivity-2 = productivity 14:00 1h sat-sun

            """)
    }

    func testScheduleUsageErrors() throws {
        for (arguments, message) in [
            (["schedule", "add", "productivity"], "missing --at WHEN"),
            (["schedule", "add", "party", "--at", "09:00"], "“party” is not a mode"),
            (["schedule", "add", "cheat-day", "--at", "09:00"], "cheat-day book"),
            (["schedule", "add", "social", "--at", "9:0:0:0"], "is not a time"),
            (["schedule", "add", "social", "--at", "09:00", "--for", "forever"], "is not a duration"),
            (["schedule", "add", "social", "--at", "09:00", "--every", "someday"], "is not a list of days"),
            (["schedule", "frob"], "unknown action `frob`"),
        ] {
            let result = try run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments)")
            XCTAssertTrue(result.err.hasPrefix("screentime schedule: "), result.err)
            XCTAssertTrue(result.err.contains(message), "\(arguments): \(result.err)")
            XCTAssertTrue(result.err.hasSuffix(" (see screentime schedule --help)\n"), result.err)
            XCTAssertEqual(result.err.split(separator: "\n").count, 1, "one line: \(result.err)")
        }
        XCTAssertEqual(try String(contentsOf: config, encoding: .utf8), "# mine\n[limits]\nfirefox = 2h\n", "nothing written")
    }

    func testCalendarAddListRemove() throws {
        let folder = home.appendingPathComponent("calendars")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        XCTAssertEqual(try run(["calendar", "list"]).out, "No calendars. Add an .ics file or folder with `screentime calendar add PATH`.\n")
        XCTAssertEqual(try run(["calendar", "add", folder.path]).out, """
            \(folder.path): no .ics files yet (a folder is read with its subfolders 2 levels down)
            Events whose title or category names a mode now switch to it.

            """)
        XCTAssertEqual(try run(["calendar", "add", folder.path]).status, 0, "adding twice keeps one")
        let missing = try run(["calendar", "add", home.appendingPathComponent("nope.ics").path])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.err, "screentime calendar: no such file or folder: \(home.path)/nope.ics\n")
        XCTAssertEqual(try run(["calendar", "list"]).out, "\(folder.path)\n")
        XCTAssertTrue(try String(contentsOf: config, encoding: .utf8).hasSuffix("\n[calendars]\npaths = \(folder.path)\n"))
        XCTAssertEqual(try run(["calendar", "rm", folder.path]).status, 0)
        XCTAssertEqual(try run(["calendar", "rm", folder.path]).status, 1)
        XCTAssertEqual(try run(["calendar", "expand", "--from", "10"]).status, 64)
        XCTAssertEqual(try run(["calendar", "expand", "--from", "10", "--to", "x"]).status, 64)
    }

    /// `add` says what it found, so the user knows the right folder was named.
    func testCalendarAddSaysWhatItFound() throws {
        let now = Date()
        func hours(_ count: Double) -> Date { now.addingTimeInterval(count * 3600) }
        let vdir = home.appendingPathComponent(".calendars")
        for (calendar, uid, summary, start) in [("personal", "5E1A0B2C-1", "Productivity: write", hours(20)), ("personal", "5E1A0B2C-2", "Dentist", hours(30)),
                                                ("personal", "5E1A0B2C-3", "Productivity", hours(24 * 40)), ("work", "9F00AA12-4", "Social", hours(50)),
                                                ("work", "9F00AA12-5", "Standup", hours(26))] {
            try CalendarClientFiles.write(CalendarClientFiles.single(uid: uid, summary: summary, from: start, to: start.addingTimeInterval(3600)),
                                          to: vdir.appendingPathComponent("\(calendar)/\(uid).ics"))
            try CalendarClientFiles.write(calendar, to: vdir.appendingPathComponent("\(calendar)/displayname"))
        }
        try CalendarClientFiles.write("half a sync", to: vdir.appendingPathComponent("work/tmpq81zk2"))
        XCTAssertEqual(try run(["calendar", "add", vdir.path]).out, """
            \(vdir.path): 2 calendars (5 .ics files), 2 mode events in the next 4 weeks
            Events whose title or category names a mode now switch to it.

            """)

        let export = home.appendingPathComponent("Downloads/export.ics")
        try CalendarClientFiles.write(CalendarClientFiles.single(uid: "a@google.com", summary: "Lunch", from: hours(2), to: hours(3)), to: export)
        XCTAssertEqual(try run(["calendar", "add", export.path]).out, """
            \(export.path): 1 calendar file, 0 mode events in the next 4 weeks
            No event names a mode yet: give one a title or category such as “Productivity”, “Social”, “Wind Down”, “Sleep”, “Wake Up”.
            Events whose title or category names a mode now switch to it.

            """)

        try CalendarClientFiles.write("not a calendar", to: vdir.appendingPathComponent("work/broken.ics"))
        let withProblem = try run(["calendar", "add", vdir.path]).out
        XCTAssertTrue(withProblem.hasPrefix("\(vdir.path): 2 calendars (6 .ics files), 2 mode events in the next 4 weeks\nwarning: \(vdir.path)/work/broken.ics"),
                      withProblem)
    }

    func testCalendarExpandPrintsJSON() throws {
        let file = home.appendingPathComponent("plans.ics")
        try """
            BEGIN:VCALENDAR
            VERSION:2.0
            PRODID:test
            BEGIN:VEVENT
            UID:1
            DTSTAMP:20261101T000000Z
            DTSTART:20261201T090000Z
            DTEND:20261201T100000Z
            SUMMARY:Social: lunch
            END:VEVENT
            END:VCALENDAR

            """.write(to: file, atomically: true, encoding: .utf8)
        XCTAssertEqual(try run(["calendar", "add", file.path]).status, 0)
        let result = try run(["calendar", "expand", "--from", "1796000000", "--to", "1797000000"])
        XCTAssertEqual(result.status, 0, result.err)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(result.out.utf8)) as? [String: Any])
        let intervals = try XCTUnwrap(json["intervals"] as? [[String: Any]])
        XCTAssertEqual(intervals.count, 1)
        XCTAssertEqual(intervals.first?["mode"] as? String, "social")
        XCTAssertEqual(intervals.first?["start"] as? Double, 1_796_115_600)
        XCTAssertEqual(json["problems"] as? [String], [])
    }

    func testAgentCommandsWithoutAnAgentExit69() throws {
        for command in [["mode"], ["mode", "productivity"], ["break"], ["bedtime"], ["stay-up"], ["start-day"],
                        ["cheat-day", "list"], ["cheat-day", "book", "2099-12-24 08:00"], ["cheat-day", "cancel", "x"]] {
            let result = try run(command)
            XCTAssertEqual(result.status, 69, "\(command): \(result.err)")
            XCTAssertTrue(result.err.hasSuffix("the screentime agent is not running (start it with `screentime agent`, or log in again)\n"), result.err)
        }
    }

    func testModeUsageErrorsExit64() throws {
        for (command, message) in [(["mode", "party"], "“party” is not a mode"), (["mode", "cheat-day"], "cheat-day book"),
                                   (["mode", "social", "now"], "unexpected `now`"), (["cheat-day", "book"], "missing WHEN"),
                                   (["cheat-day", "book", "soon"], "is not a date"), (["break", "now"], "unexpected `now`")] {
            let result = try run(command)
            XCTAssertEqual(result.status, 64, "\(command)")
            XCTAssertTrue(result.err.contains(message), "\(command): \(result.err)")
            XCTAssertTrue(result.err.hasSuffix(" (see screentime \(command[0]) --help)\n"), result.err)
        }
    }
}
