import Foundation
import ScreenTimeCore
import SyncFolder
import Harnesses
import XCTest

/// `sync join|leave|status`, and reports across the joined computers.
extension CLIGoldenTests {
    /// This computer as `sync join` finds it: its id made once before (so the output is the same on every run).
    func prepareSyncedFolder() throws -> String {
        let folder = home.appendingPathComponent("Sync").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let state = home.appendingPathComponent(".local/state/screentime")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        try "device=00000000000000aa\nname=laptop\n".write(to: state.appendingPathComponent("sync"), atomically: true, encoding: .utf8)
        // The desktop's Saturday: 30 minutes of Firefox from 10:00, 20 of mpv from 12:00 (UTC, days from 04:00).
        let desktop = SyncDeviceID("00000000000000bb")!
        var day = DeviceDay(device: desktop, name: "desktop", sequence: 3, written: Date(timeIntervalSince1970: 1_795_872_000),
                            day: CivilDate(year: 2026, month: 11, day: 28))
        day.add(30 * 60_000, app: "firefox", groups: ["browsers"], hour: 6)
        day.add(20 * 60_000, app: "mpv", groups: ["content"], hour: 8)
        try SyncFolder(root: folder).write(day)
        // A conflict copy of it and a sync engine's temporary file: counted once, and not at all.
        let desktopFolder = folder + "/desktop-00000000000000bb"
        try FileManager.default.copyItem(atPath: desktopFolder + "/2026-11-28.day",
                                         toPath: desktopFolder + "/2026-11-28.sync-conflict-20261128-120000-ABCDEFG.day")
        try "screentime-day\t1\n".write(toFile: desktopFolder + "/.syncthing.2026-11-29.day.tmp", atomically: false, encoding: .utf8)
        return folder
    }

    /// A file cut short, as a copy taken while it was written would be.
    func damageADay(in folder: String) throws {
        try "screentime-day\t1\ndevice\t00000000000000bb\tdesktop\n".write(toFile: folder + "/desktop-00000000000000bb/2026-11-27.day",
                                                                          atomically: false, encoding: .utf8)
    }

    func testSyncJoinStatusAndLeave() throws {
        let folder = try prepareSyncedFolder()
        let notJoined = try run(["sync", "status"])
        XCTAssertEqual(notJoined.status, 0)
        XCTAssertEqual(notJoined.out, "Not joined to a synced folder (screentime sync join PATH).\n")
        XCTAssertEqual(try run(["sync", "join", home.appendingPathComponent("missing").path]).status, 1)
        XCTAssertEqual(try run(["sync", "join"]).status, 64)
        XCTAssertEqual(try run(["sync", "frobnicate"]).status, 64)
        let join = try run(["sync", "join", folder])
        XCTAssertEqual(join.status, 0, join.err)
        try assertGolden("sync-join.txt", join.out.replacingOccurrences(of: home.path, with: "HOME"))
        let status = try run(["sync", "status"])
        XCTAssertEqual(status.status, 0, status.err)
        try assertGolden("sync-status.txt", status.out.replacingOccurrences(of: home.path, with: "HOME"))
        // `doctor` names the computers and, once a file is damaged, the problem.
        func doctorLines() throws -> String {
            let doctor = try run(["doctor"])
            let lines = doctor.out.replacingOccurrences(of: home.path, with: "HOME").split(separator: "\n", omittingEmptySubsequences: false)
            let sync = try XCTUnwrap(lines.firstIndex { $0.hasPrefix("ok   sync") || $0.hasPrefix("warn sync") }, doctor.out)
            return lines[sync...].joined(separator: "\n")
        }
        let healthy = try doctorLines()
        try damageADay(in: folder)
        try assertGolden("doctor-sync.txt", healthy + "\n" + (try doctorLines()))
        let leave = try run(["sync", "leave"])
        try assertGolden("sync-leave.txt", leave.out.replacingOccurrences(of: home.path, with: "HOME"))
        XCTAssertEqual(try run(["sync", "status"]).out, notJoined.out)
        XCTAssertEqual(try run(["sync", "leave"]).out, "Not joined to a synced folder.\n")
    }

    /// A computer whose files are dated ahead of this one's clock is named, with what it changes
    /// and what to do; within two minutes it is not (a sync engine's delay, a clock a little off).
    func testAComputerWhoseClockIsAheadIsNamed() throws {
        let folder = try prepareSyncedFolder()
        XCTAssertEqual(try run(["sync", "join", folder]).status, 0)
        func syncLines(_ now: TimeInterval) throws -> (status: String, doctor: String) {
            var environment = environment
            environment["SCREENTIME_NOW"] = String(Int(now))
            let status = try AgentProcess.run(["sync", "status"], environment: environment)
            XCTAssertEqual(status.status, 0, status.err)
            return (status.out, try AgentProcess.run(["doctor"], environment: environment).out)
        }
        let written = 1_795_872_000.0  // the desktop's write, 2026-11-28 13:20 UTC
        let ahead = try syncLines(written - 600)
        let named = "Problem: desktop's clock is at least 10m ahead of this computer's (it wrote at 2026-11-28 13:20; it is 2026-11-28 13:10 here): "
            + "a setting it changes wins over a later change here until the clocks agree. Turn on network time on both (timedatectl set-ntp true)."
        XCTAssertTrue(ahead.status.contains(named), ahead.status)
        XCTAssertTrue(ahead.doctor.contains("warn sync"), ahead.doctor)
        XCTAssertTrue(ahead.doctor.contains(named), ahead.doctor)
        let close = try syncLines(written - 60)
        XCTAssertFalse(close.status.contains("clock"), close.status)
        XCTAssertTrue(close.doctor.contains("ok   sync"), close.doctor)
    }

    /// `apps` on the desktop's Saturday: TODAY is each app's time on both computers, as its limit
    /// counts it; before joining, this computer's alone.
    func testAppsCountTodayOnEveryJoinedComputer() throws {
        try recordUsage()
        try installApps()
        let folder = try prepareSyncedFolder()
        var saturday = environment
        saturday["SCREENTIME_NOW"] = "1795867200"  // 2026-11-28 12:00 UTC
        func row(_ app: String) throws -> String {
            let apps = try AgentProcess.run(["apps"], environment: saturday)
            XCTAssertEqual(apps.status, 0, apps.err)
            let row = apps.out.split(separator: "\n").first { $0.hasPrefix(app + " ") } ?? ""
            return row.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
        XCTAssertEqual(try row("firefox"), "firefox Firefox browsers 1 h 10 min none", "this computer's time")
        XCTAssertEqual(try row("mpv"), "", "mpv was used on the desktop alone")
        XCTAssertEqual(try run(["sync", "join", folder]).status, 0)
        XCTAssertEqual(try row("firefox"), "firefox Firefox browsers 1 h 40 min none", "and the desktop's 30 minutes")
        XCTAssertEqual(try row("mpv"), "mpv mpv - 20 min 1h")
        saturday["SCREENTIME_NOW"] = "tomorrow"
        let bad = try AgentProcess.run(["apps"], environment: saturday)
        XCTAssertEqual(bad.status, 64, "a clock that is not one is refused: \(bad.err)")
    }

    /// A day's report across the two computers: every app's time from both, each computer's share;
    /// `--device` one computer's alone.
    func testReportAcrossJoinedComputers() throws {
        try recordUsage()
        try installApps()
        let folder = try prepareSyncedFolder()
        XCTAssertEqual(try run(["sync", "join", folder]).status, 0)
        try assertGolden("report-day-devices.txt", try run(["report", "2026-11-28"]).out)
        let json = try JSONSerialization.jsonObject(with: Data(try run(["report", "2026-11-28", "--json"]).out.utf8)) as? [String: Any]
        let devices = try XCTUnwrap(json?["devices"] as? [[String: Any]])
        XCTAssertEqual(devices.map { $0["name"] as? String }, ["laptop (this computer)", "desktop"])
        XCTAssertEqual(devices.map { $0["seconds"] as? Double }, [108 * 60, 50 * 60])
        XCTAssertEqual(json?["totalSeconds"] as? Double, 158 * 60)
        try assertGolden("report-day-desktop.txt", try run(["report", "2026-11-28", "--device", "desktop"]).out)
        let laptop = try run(["report", "2026-11-28", "--device", "laptop", "--json"]).out
        XCTAssertTrue(laptop.contains("\"totalSeconds\" : 6480"), laptop)
        let unknown = try run(["report", "--device", "phone"])
        XCTAssertEqual(unknown.status, 64)
        XCTAssertEqual(unknown.err, "screentime report: no computer named phone (known: laptop, desktop) (see screentime report --help)\n")
    }
}
