import Foundation
import ScreenTimeCore
import SyncFolder
import UsageStore
import XCTest

final class SyncFolderTests: XCTestCase {
    let laptop = SyncDeviceID("00000000000000aa")!
    let desktop = SyncDeviceID("00000000000000bb")!
    let day = CivilDate(year: 2026, month: 12, day: 2)
    let dayStart = Date(timeIntervalSince1970: 1_796_180_400) // 2026-12-02 04:00 (UTC+1)

    func temporaryFolder() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("screentime-sync-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url.path
    }

    /// A device writes its file in its own folder and leaves nothing else behind; another reads it.
    func testAWrittenDayIsReadByTheOthersAndNotByItself() throws {
        let folder = SyncFolder(root: try temporaryFolder())
        var written = DeviceDay(device: laptop, name: "laptop", sequence: 1, written: dayStart, day: day)
        written.add(600_000, app: "firefox", groups: ["browsers"], hour: 3)
        let bytes = try folder.write(written)
        written.sequence = 2
        try folder.write(written)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.root + "/laptop-00000000000000aa")
        XCTAssertEqual(names, ["2026-12-02.day"])
        XCTAssertGreaterThan(bytes, 50)
        XCTAssertEqual(folder.read(skipping: desktop).devices[laptop]?.days[day], written)
        XCTAssertTrue(folder.read(skipping: laptop).devices.isEmpty)
        XCTAssertEqual(folder.ownVersions(of: laptop, name: "laptop", day: day), [written])
        // Renamed, the device keeps writing in its folder.
        written.name = "Anna's laptop"
        try folder.write(written)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.root), ["laptop-00000000000000aa"])
    }

    /// Each rewrite of a file is dated a later whole second than the version it replaces, however
    /// quickly it follows: a sync engine that compares sizes and whole seconds (rsync's quick check)
    /// sees every version.
    func testARewriteInTheSameSecondIsDatedAfterTheVersionItReplaces() throws {
        let folder = SyncFolder(root: try temporaryFolder())
        var view = SettingsChanges(device: laptop, name: "laptop")
        let key = SharedSettingKey(section: "limits", key: "stgame")
        var seconds: [Int] = []
        for value in ["40m", "35m", "30m"] {
            view.settings[key] = StampedSetting(stamp: 1_796_180_400_000, device: laptop, value: value)
            try folder.write(view)
            let file = folder.root + "/laptop-00000000000000aa/" + SyncFolderLayout.settingsFileName
            let date = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: file)[.modificationDate] as? Date)
            seconds.append(Int(date.timeIntervalSince1970.rounded(.down)))
        }
        XCTAssertEqual(seconds, seconds.sorted(), "\(seconds)")
        XCTAssertEqual(Set(seconds).count, 3, "three writes, three seconds: \(seconds)")
        XCTAssertLessThan(seconds[2], Int(Date().timeIntervalSince1970) + 4, "never far ahead of the clock")
    }

    /// What a sync engine leaves in the folder: its temporary files, half-copied ones, conflict copies.
    func testTheFolderAsASyncEngineLeavesIt() throws {
        let root = try temporaryFolder()
        let folder = SyncFolder(root: root)
        var first = DeviceDay(device: desktop, name: "desktop", sequence: 4, written: dayStart, day: day)
        first.add(300_000, app: "mpv", groups: ["content"], hour: 10)
        var second = first
        second.sequence = 5
        second.add(300_000, app: "mpv", groups: ["content"], hour: 11)
        try folder.write(second)
        let deviceFolder = root + "/desktop-00000000000000bb"
        try first.encoded().write(toFile: deviceFolder + "/2026-12-02.sync-conflict-20261202-101010-ABCDEFG.day", atomically: false, encoding: .utf8)
        try String(second.encoded().prefix(40)).write(toFile: deviceFolder + "/.syncthing.2026-12-03.day.tmp", atomically: false, encoding: .utf8)
        try String(second.encoded().prefix(40)).write(toFile: deviceFolder + "/~syncthing~2026-12-03.day.tmp", atomically: false, encoding: .utf8)
        try "screentime-day\t1\ndevice".write(toFile: deviceFolder + "/2026-12-01.day", atomically: false, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: root + "/.stfolder", withIntermediateDirectories: true)
        let reading = folder.read(skipping: laptop)
        XCTAssertEqual(reading.usage(on: day), UsageElsewhere(apps: ["mpv": 600], groups: ["content": 600]))
        XCTAssertEqual(reading.inTransit, 2)
        XCTAssertEqual(reading.conflictCopies.count, 1)
        XCTAssertEqual(reading.damaged.map(\.path), ["desktop-00000000000000bb/2026-12-01.day"])
        // Only the days asked for are read.
        XCTAssertEqual(folder.read(skipping: laptop, days: day.adding(days: 1)...day.adding(days: 1)).damaged, [])
    }

    /// The day from the store: each interval's time in the hours it covers, with its groups.
    func testADayFromTheStore() throws {
        let root = try temporaryFolder()
        let store = try UsageDatabase(path: root + "/s.db")
        let nine = dayStart.addingTimeInterval(5 * 3600) // 09:00
        let id = try store.beginInterval(app: "firefox", title: "", mode: "standard", at: nine.addingTimeInterval(-600))
        try store.extendInterval(id, to: nine.addingTimeInterval(1200))
        try store.recordLimitHit(app: "firefox", at: nine.addingTimeInterval(1200), used: 1800)
        try store.recordBypass(app: "firefox", mode: "standard", rule: .limit, at: nine.addingTimeInterval(1300), granted: 900)
        let exported = try DayExport.day(day, from: dayStart, to: dayStart.addingTimeInterval(86_400), store: store,
                                         device: laptop, name: "laptop", sequence: 9, written: nine, groups: { _ in ["browsers"] })
        XCTAssertEqual(exported.apps["firefox"], HourTotals([4: 600_000, 5: 1_200_000]))
        XCTAssertEqual(exported.groups["browsers"], HourTotals([4: 600_000, 5: 1_200_000]))
        XCTAssertEqual(exported.limitHits.map(\.used), [1800])
        XCTAssertEqual(exported.bypasses.map(\.granted), [900])
    }

    func testMembershipIsKeptOnThisComputer() throws {
        let root = try temporaryFolder()
        let environment = ["HOME": root]
        let fresh = SyncMembership.load(environment: environment)
        XCTAssertNil(fresh.folder)
        var joined = fresh
        joined.folder = root + "/Sync"
        try joined.save(environment: environment)
        XCTAssertEqual(SyncMembership.load(environment: environment), joined)
        XCTAssertEqual(SyncMembership.path(environment: environment), root + "/.local/state/screentime/sync")
    }
}
