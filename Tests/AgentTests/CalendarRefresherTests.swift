import Agent
import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

/// The refresher against the built `screentime calendar expand`, on real files.
final class CalendarRefresherTests: XCTestCase {
    var home: URL!
    var environment: [String: String] = [:]
    var calendar: URL!
    /// 2026-11-30 12:00 UTC.
    let now = Date(timeIntervalSince1970: 1_796_040_000)

    override func setUpWithError() throws {
        home = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-cal-\(UUID().uuidString)")
        let folder = home.appendingPathComponent("cal")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { [home] in try? FileManager.default.removeItem(at: home!) }
        calendar = folder.appendingPathComponent("work.ics")
        try write(events: [("Productivity: report", "20261201T090000Z", "20261201T100000Z")])
        environment = ["HOME": home.path, "TZ": "UTC", "PATH": "/usr/bin:/bin"]
        let config = home.appendingPathComponent(".config/screentime/config")
        try FileManager.default.createDirectory(at: config.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "[calendars]\npaths = \(folder.path)\n".write(to: config, atomically: true, encoding: .utf8)
    }

    func write(events: [(String, String, String)]) throws {
        let body = events.enumerated().map { index, event in
            "BEGIN:VEVENT\nUID:\(index)\nDTSTAMP:20261101T000000Z\nDTSTART:\(event.1)\nDTEND:\(event.2)\nSUMMARY:\(event.0)\nEND:VEVENT\n"
        }.joined()
        try "BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:test\n\(body)END:VCALENDAR\n".write(to: calendar, atomically: false, encoding: .utf8)
    }

    func refresher() -> CalendarRefresher {
        CalendarRefresher(executable: AgentProcess.binary.path, environment: environment)
    }

    /// Runs the refresher's expansion to its end as the agent's loop does: polls its output, and
    /// stops it at its deadline (`now` plus the real time elapsed). Returns whether anything changed.
    @discardableResult
    func finish(_ refresher: CalendarRefresher, startedAt now: Date, changedAtStart: Bool = false) -> Bool {
        let started = Date()
        var changed = changedAtStart
        while let fd = refresher.childFileDescriptor {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&entry, 1, 20) > 0 { changed = refresher.childOutputArrived() || changed }
            changed = refresher.stopOverdueChild(now: now.addingTimeInterval(Date().timeIntervalSince(started))) || changed
        }
        return changed
    }

    func testExpandsAndRefreshesWhenAFileChanges() throws {
        let refresher = refresher()
        let paths = [calendar.deletingLastPathComponent().path]
        XCTAssertTrue(refresher.isDue(paths: paths, now: now))
        XCTAssertTrue(finish(refresher, startedAt: now, changedAtStart: refresher.refreshIfDue(paths: paths, now: now)))
        XCTAssertEqual(refresher.problems, [])
        XCTAssertEqual(refresher.intervals, [CalendarInterval(mode: .productivity, start: Date(timeIntervalSince1970: 1_796_115_600),
                                                              end: Date(timeIntervalSince1970: 1_796_119_200),
                                                              summary: "Productivity: report", source: calendar.path)])
        XCTAssertFalse(refresher.isDue(paths: paths, now: now.addingTimeInterval(60)), "nothing changed")
        XCTAssertFalse(refresher.refreshIfDue(paths: paths, now: now.addingTimeInterval(60)))
        XCTAssertEqual(refresher.nextRefresh, now.addingTimeInterval(6 * 3600))

        try write(events: [("Productivity: report", "20261201T090000Z", "20261201T100000Z"),
                           ("Social", "20261202T180000Z", "20261202T200000Z")])
        XCTAssertTrue(refresher.isDue(paths: paths, now: now.addingTimeInterval(120)), "the file grew")
        XCTAssertTrue(finish(refresher, startedAt: now.addingTimeInterval(120), changedAtStart: refresher.refreshIfDue(paths: paths, now: now.addingTimeInterval(120))))
        XCTAssertEqual(refresher.intervals.map(\.mode), [.productivity, .social])
        XCTAssertTrue(refresher.isDue(paths: paths, now: now.addingTimeInterval(120 + 6 * 3600)), "every 6 hours")
        XCTAssertTrue(refresher.isDue(paths: [], now: now.addingTimeInterval(180)), "the configured paths changed")
        XCTAssertTrue(refresher.refresh(paths: [], now: now.addingTimeInterval(180)))
        XCTAssertEqual(refresher.intervals, [])
    }

    /// Issue 19: one mistyped year trapped `calendar expand`, and an agent started afresh then had no
    /// calendar at all; now the bad events are named and the other file's event still sets its mode.
    func testAMistypedYearInOneFileLeavesTheOtherFilesModesAfterARestart() throws {
        let folder = calendar.deletingLastPathComponent()
        try """
            BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:test\nBEGIN:VEVENT\nUID:dentist\nDTSTART:20261215T090000\nDTEND:21261215T100000
            SUMMARY:Dentist\nEND:VEVENT\nBEGIN:VEVENT\nUID:far\nDTSTART:99991215T090000\nDTEND:20261215T100000\nSUMMARY:Social
            END:VEVENT\nEND:VCALENDAR\n
            """.write(to: folder.appendingPathComponent("dentist.ics"), atomically: true, encoding: .utf8)
        // A refresher of its own: the agent has just started and keeps no earlier result.
        let refresher = refresher()
        finish(refresher, startedAt: now, changedAtStart: refresher.refreshIfDue(paths: [folder.path], now: now))
        XCTAssertEqual(refresher.intervals.map(\.mode), [.productivity], "\(refresher.problems)")
        XCTAssertTrue(refresher.problems.contains { $0.hasSuffix("dentist.ics: UID dentist: “Dentist”: lasts more than 10 years (DTSTART 2026-12-15 09:00, DTEND 2126-12-15 10:00): a mistyped year? The event is left out") },
                      "\(refresher.problems)")
        XCTAssertTrue(refresher.problems.contains { $0.contains("dentist.ics: UID far: “Social”: lasts more than 10 years") }, "\(refresher.problems)")
    }

    func testProblemsNameTheFile() throws {
        try "[calendars]\npaths = /nonexistent/cal.ics\n".write(to: home.appendingPathComponent(".config/screentime/config"),
                                                             atomically: true, encoding: .utf8)
        let refresher = refresher()
        refresher.refresh(paths: ["/nonexistent/cal.ics"], now: now)
        finish(refresher, startedAt: now)
        XCTAssertEqual(refresher.problems, ["/nonexistent/cal.ics: no such file or folder"])
    }

    /// A failing or hanging helper keeps the last good intervals and says why, within the timeout.
    func testFailureAndTimeoutKeepTheLastIntervals() throws {
        let paths = [calendar.path]
        let good = refresher()
        good.refresh(paths: paths, now: now)
        finish(good, startedAt: now)
        XCTAssertEqual(good.intervals.count, 1)

        let script = home.appendingPathComponent("hang.sh")
        try "#!/bin/sh\nexec sleep 5\n".write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o755)
        let hanging = CalendarRefresher(executable: script.path, environment: environment)
        hanging.timeout = 0.3
        let started = Date()
        hanging.refresh(paths: paths, now: now)
        finish(hanging, startedAt: now)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "stopped at the timeout")
        XCTAssertEqual(hanging.intervals, [])
        XCTAssertTrue(hanging.problems.first?.contains("took longer than") == true, "\(hanging.problems)")

        let missing = CalendarRefresher(executable: home.appendingPathComponent("nothing").path, environment: environment)
        missing.refresh(paths: paths, now: now)
        XCTAssertTrue(missing.problems.first?.contains("cannot start") == true, "\(missing.problems)")
    }
}

extension CalendarRefresherTests {
    /// Changes the watch reports are looked at once the folders are quiet, at most a second after
    /// the first, not while an expansion runs and at most once a second: a sync of hundreds of
    /// files is a few expansions.
    func testChangesAreLookedAtOnceTheFoldersAreQuiet() throws {
        let refresher = refresher()
        let paths = [calendar.deletingLastPathComponent().path]
        XCTAssertNil(refresher.nextLook, "nothing changed")
        refresher.foldersChanged(now: now)
        XCTAssertEqual(refresher.nextLook, now.addingTimeInterval(0.1))
        for step in 1...30 { refresher.foldersChanged(now: now.addingTimeInterval(Double(step) * 0.05)) }
        XCTAssertEqual(refresher.nextLook, now.addingTimeInterval(1), "a burst is looked at within a second of its start")

        try write(events: [("Social", "20261202T180000Z", "20261202T200000Z")])
        XCTAssertFalse(refresher.refreshIfDue(paths: paths, now: now.addingTimeInterval(1)))
        XCTAssertNil(refresher.nextLook, "looked at: the expansion started")
        XCTAssertNotNil(refresher.childFileDescriptor)
        try write(events: [("Productivity", "20261202T180000Z", "20261202T200000Z")])
        refresher.foldersChanged(now: now.addingTimeInterval(1.1))
        XCTAssertNil(refresher.nextLook, "not while the expansion runs")
        XCTAssertFalse(refresher.refreshIfDue(paths: paths, now: now.addingTimeInterval(1.2)))
        XCTAssertNotNil(refresher.childFileDescriptor, "the running expansion is left to finish")

        finish(refresher, startedAt: now.addingTimeInterval(1.2))
        XCTAssertEqual(refresher.nextLook, now.addingTimeInterval(2), "the change during the expansion is looked at after it, a second after it began")
        refresher.refreshIfDue(paths: paths, now: now.addingTimeInterval(2))
        XCTAssertNotNil(refresher.childFileDescriptor, "the file changed since the expansion began: expanded again")
        finish(refresher, startedAt: now.addingTimeInterval(2))
        XCTAssertEqual(refresher.intervals.map(\.mode), [.productivity])
        XCTAssertNil(refresher.nextLook)
    }
}
