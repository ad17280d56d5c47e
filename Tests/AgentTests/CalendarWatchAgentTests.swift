import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// The running agent picks up a calendar change at once, however a sync tool or an app writes it,
/// and a sync of hundreds of files costs a few expansions, not one per file.
final class CalendarWatchAgentTests: XCTestCase {
    var desk: DesktopHarness!
    var agent: AgentProcess!
    let now = Date()

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
    }

    /// The agent owns the session's bus name: the next test's agent needs it.
    override func tearDown() {
        agent?.stop()
        agent = nil
    }

    /// A calendar of one event naming `summary`, from `minutesAgo` before the test began to two
    /// hours after: among overlapping calendar events the one that started last holds.
    func event(_ uid: String, _ summary: String, startedMinutesAgo minutesAgo: Double) -> String {
        CalendarClientFiles.single(uid: uid, summary: summary, from: now.addingTimeInterval(-60 * minutesAgo), to: now.addingTimeInterval(7200))
    }

    func logLines(startingWith prefix: String) -> [Substring] {
        agent.log.split(separator: "\n").filter { $0.hasPrefix(prefix) }
    }

    /// Makes `change` and waits (bounded) until the agent's mode is `mode`; returns how long it took.
    /// Changes a second apart, as a user makes them: the agent expands at most once a second.
    @discardableResult
    func expect(_ mode: Mode, after kind: String, _ change: () throws -> Void) throws -> TimeInterval {
        usleep(1_000_000)
        let switches = logLines(startingWith: "screentime: mode: ").count
        let started = Date()
        try change()
        let switched = eventually(10) {
            let lines = logLines(startingWith: "screentime: mode: ")
            return lines.count > switches && lines.last!.hasPrefix("screentime: mode: \(mode.displayName) (")
        }
        let took = Date().timeIntervalSince(started)
        XCTAssertTrue(switched, "\(kind): the mode did not become \(mode.displayName); log:\n\(agent.log)")
        if switched { print("calendar change picked up: \(kind): \(mode.displayName) after \(Int(took * 1000)) ms") }
        return took
    }

    func expansionsStarted() throws -> Int {
        let status = try StatusFormat.decode(try agent.cli(["status", "--json"]).out)
        return Int(try XCTUnwrap(status.diagnostics?["calendarExpansions"], "the status does not count expansions"))
    }

    func testEachWayOfWritingACalendarChangesTheModeAtOnce() throws {
        let environment = try AgentProcess.freshEnvironment(on: desk, config: "")
        let home = URL(fileURLWithPath: environment["HOME"]!)
        let vdir = home.appendingPathComponent(".calendars")
        let work = vdir.appendingPathComponent("work")
        let export = home.appendingPathComponent("Downloads/calendar.ics")
        try CalendarClientFiles.write("Work", to: work.appendingPathComponent("displayname"))
        try CalendarClientFiles.write("#3a87ad", to: work.appendingPathComponent("color"))
        try CalendarClientFiles.write(event("a", "Productivity: report", startedMinutesAgo: 60), to: work.appendingPathComponent("a.ics"))
        try CalendarClientFiles.write(event("x", "Dentist", startedMinutesAgo: 5), to: export)
        try "[general]\nidle-after = 1h\n[modes]\nautomatic = off\nbreaks = off\n[calendars]\npaths = \(vdir.path);\(export.path)\n"
            .write(to: home.appendingPathComponent(".config/screentime/config"), atomically: true, encoding: .utf8)
        agent = try AgentProcess(environment: environment, desk: desk)
        XCTAssertTrue(eventually(10) { logLines(startingWith: "screentime: mode: Productivity (").count == 1 },
                      "the calendar's event never held; log:\n\(agent.log)")

        try expect(.social, after: "a file replaced by renaming a temporary file over it") {
            try CalendarClientFiles.replaceByRenaming(event("a", "Social: call", startedMinutesAgo: 60), at: work.appendingPathComponent("a.ics"))
        }
        try expect(.standard, after: "a file deleted") {
            try FileManager.default.removeItem(at: work.appendingPathComponent("a.ics"))
        }
        let home2 = vdir.appendingPathComponent("home")
        try expect(.productivity, after: "a calendar folder added, its file linked from a temporary file (vdirsyncer)") {
            try FileManager.default.createDirectory(at: home2, withIntermediateDirectories: false)
            try CalendarClientFiles.write("Home", to: home2.appendingPathComponent("displayname"))
            try CalendarClientFiles.addAsVdirsyncerDoes(event("b", "Productivity: taxes", startedMinutesAgo: 50), to: home2.appendingPathComponent("b.ics"))
        }
        try expect(.social, after: "a file edited in place") {
            let handle = try FileHandle(forWritingTo: home2.appendingPathComponent("b.ics"))
            try handle.truncate(atOffset: 0)
            try handle.write(contentsOf: Data(event("b", "Social: dinner", startedMinutesAgo: 50).utf8))
            try handle.close()
        }
        try expect(.productivity, after: "the exported calendar file replaced by a new export") {
            try CalendarClientFiles.replaceByRenaming(event("x", "Productivity: sprint", startedMinutesAgo: 40), at: export)
        }
        try expect(.social, after: "the calendars folder replaced whole (renamed away, a new one renamed in)") {
            let fresh = home.appendingPathComponent(".calendars.new")
            try CalendarClientFiles.write(event("c", "Social: party", startedMinutesAgo: 20), to: fresh.appendingPathComponent("work/c.ics"))
            try FileManager.default.moveItem(at: vdir, to: home.appendingPathComponent(".calendars.old"))
            try FileManager.default.moveItem(at: fresh, to: vdir)
        }
        try expect(.productivity, after: "the calendars folder deleted") {
            try FileManager.default.removeItem(at: vdir)
        }
        try expect(.social, after: "the calendars folder made again by a fresh sync") {
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            try CalendarClientFiles.addAsVdirsyncerDoes(event("d", "Social: games", startedMinutesAgo: 15), to: work.appendingPathComponent("d.ics"))
        }
        let before = try StatusFormat.decode(try agent.cli(["status", "--json"]).out)
        XCTAssertEqual(before.mode, "social")
        print("longest loop turn before the sync \(before.diagnostics?["longestLoopTurnMs"] ?? -1) ms")

        // A sync adds a calendar of 500 events as vdirsyncer does; the last names Productivity.
        let expansions = try expansionsStarted()
        var writing = 0.0
        let team = vdir.appendingPathComponent("team")
        try expect(.productivity, after: "a sync of 500 files") {
            let began = Date()
            try FileManager.default.createDirectory(at: team, withIntermediateDirectories: false)
            for index in 0..<500 {
                let uid = String(format: "%08X-1B2C-4D5E-8F90-%012X", index * 7919, index)
                let text = index == 499 ? event(uid, "Productivity: planning", startedMinutesAgo: 10)
                    : CalendarClientFiles.single(uid: uid, summary: "Meeting \(index)", from: now.addingTimeInterval(Double(index + 1) * 3600),
                                                 to: now.addingTimeInterval(Double(index + 1) * 3600 + 1800))
                try CalendarClientFiles.addAsVdirsyncerDoes(text, to: team.appendingPathComponent("\(uid).ics"))
            }
            writing = Date().timeIntervalSince(began)
        }
        // Any look still pending after the last file ends within a second and its expansion soon after.
        usleep(2_500_000)
        let during = try expansionsStarted() - expansions
        print("a sync of 500 files written in \(Int(writing * 1000)) ms cost \(during) expansions: "
              + logLines(startingWith: "screentime: calendars read in ").suffix(during).joined(separator: "; "))
        // An expansion a second at most while the files come, and one after the last (and one
        // more if the agent saw the last files late).
        XCTAssertGreaterThanOrEqual(during, 1)
        XCTAssertLessThanOrEqual(during, Int(writing) + 3, "expansions were not coalesced")
        let status = try StatusFormat.decode(try agent.cli(["status", "--json"]).out)
        XCTAssertEqual(status.mode, "productivity")
        print("longest loop turn \(status.diagnostics?["longestLoopTurnMs"] ?? -1) ms")
    }
}
