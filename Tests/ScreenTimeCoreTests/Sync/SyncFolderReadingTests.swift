import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

final class SyncFolderReadingTests: XCTestCase {
    let laptop = SyncDeviceID("00000000000000aa")!
    let desktop = SyncDeviceID("00000000000000bb")!
    let day = CivilDate(year: 2026, month: 12, day: 2)
    let noon = Date(timeIntervalSince1970: 1_796_212_800)

    func sample(_ device: SyncDeviceID, name: String = "laptop", sequence: UInt64 = 1, minutes: Int64 = 30) -> DeviceDay {
        var deviceDay = DeviceDay(device: device, name: name, sequence: sequence, written: noon, day: day)
        deviceDay.add(minutes * 60_000, app: "firefox", groups: ["browsers"], hour: 8)
        deviceDay.add(5 * 60_000, app: "org.gnome.Terminal", groups: ["productivity", "system"], hour: 9)
        deviceDay.bypasses.insert(.init(at: noon, app: "firefox", rule: .limit, granted: 900))
        deviceDay.limitHits.insert(.init(at: noon, app: "firefox", used: 3600))
        return deviceDay
    }

    func file(_ deviceDay: DeviceDay, name: String? = nil, text: String? = nil) -> SyncFolderFile {
        SyncFolderFile(folder: SyncFolderLayout.deviceFolderName(id: deviceDay.device, name: deviceDay.name),
                       name: name ?? SyncFolderLayout.dayFileName(deviceDay.day), text: text ?? deviceDay.encoded())
    }

    func testADayReadsBackAsWritten() throws {
        var deviceDay = sample(laptop, name: "Anna's\tlaptop\\")
        deviceDay.add(1000, app: "title:odd\tname\nhere", groups: [], hour: 25)
        XCTAssertEqual(try DeviceDay.parse(deviceDay.encoded()), deviceDay)
        XCTAssertEqual(SyncFolderLayout.deviceFolderName(id: laptop, name: "Anna's laptop"), "Anna_s_laptop-00000000000000aa")
        XCTAssertEqual(SyncFolderLayout.device(ofFolder: "Anna_s_laptop-00000000000000aa"), laptop)
        XCTAssertNil(SyncFolderLayout.device(ofFolder: ".syncthing.x-00000000000000aa"))
    }

    func testTornAndTemporaryFilesAreNotCountedAndTheTornAreNamed() {
        let text = sample(laptop).encoded()
        let torn = String(text.prefix(text.utf8.count / 2))
        let reading = SyncFolderReading([
            file(sample(laptop), text: torn),
            file(sample(laptop), name: ".syncthing.2026-12-02.day.tmp"),
            file(sample(laptop), name: "~syncthing~2026-12-02.day.tmp"),
        ])
        XCTAssertEqual(reading.inTransit, 2)
        XCTAssertEqual(reading.damaged.map(\.path), ["laptop-00000000000000aa/2026-12-02.day"])
        XCTAssertEqual(reading.usage(on: day), UsageElsewhere())
        // An unreadable file is named too, and a file claiming another device's day is not counted.
        let misplaced = SyncFolderReading([SyncFolderFile(folder: "laptop-00000000000000aa", name: "2026-12-02.day", text: sample(desktop).encoded())])
        XCTAssertEqual(misplaced.damaged.count, 1)
        XCTAssertTrue(misplaced.devices.isEmpty)
    }

    func testAConflictCopyMergesWithoutDoubling() throws {
        let older = sample(laptop, sequence: 3, minutes: 20)
        let newer = sample(laptop, sequence: 4, minutes: 30)
        let reading = SyncFolderReading([
            file(newer),
            file(older, name: "2026-12-02.sync-conflict-20261202-120000-ABCDEFG.day"),
            file(sample(desktop, name: "desktop", minutes: 10)),
        ])
        XCTAssertEqual(reading.conflictCopies, ["laptop-00000000000000aa/2026-12-02.sync-conflict-20261202-120000-ABCDEFG.day"])
        XCTAssertEqual(reading.usage(on: day).apps, ["firefox": 40 * 60, "org.gnome.Terminal": 10 * 60])
        XCTAssertEqual(reading.usage(on: day).groups["browsers"], 40 * 60)
        XCTAssertEqual(reading.devices[laptop]?.clashingDays, [])
        XCTAssertEqual(reading.sortedDevices.map(\.name), ["desktop", "laptop"])
        // This device's own files are its store's: never read back as another's.
        XCTAssertEqual(SyncFolderReading([file(newer)], skipping: laptop).devices.count, 0)
    }

    /// A cloned disk: two computers write one id. Their versions of a day hold different hours;
    /// the day is named as clashing and taken once (each hour's larger figure), never summed.
    func testOneIDOnTwoComputersIsNamedNotSummed() {
        var a = DeviceDay(device: laptop, name: "laptop", sequence: 7, written: noon, day: day)
        a.add(600_000, app: "firefox", groups: [], hour: 8)
        var b = DeviceDay(device: laptop, name: "laptop", sequence: 7, written: noon, day: day)
        b.add(900_000, app: "firefox", groups: [], hour: 9)
        b.add(300_000, app: "firefox", groups: [], hour: 8)
        let reading = SyncFolderReading([file(a), file(b, name: "2026-12-02.sync-conflict-20261202-120000-ZZZ.day")])
        XCTAssertEqual(reading.devices[laptop]?.clashingDays, [day])
        XCTAssertEqual(reading.usage(on: day).apps["firefox"], 1500)
    }

    /// A device writes its day again and again while the sync engine copies what it finds: some
    /// versions arrive late, out of order, twice, torn, or as conflict copies; some devices are
    /// restored from a backup (their later writes start from what the folder held). Whatever
    /// arrives, nothing is counted twice, and the latest version arrived is never undercounted.
    func testSeededRandomDeliveriesNeitherDoubleNorLose() throws {
        for seed in SplitMix64.seeds(count: 60, environment: ProcessInfo.processInfo.environment) {
            var random = SplitMix64(seed: seed)
            let devices = (0..<Int.random(in: 1...4, using: &random)).map { SyncDeviceID(randomBits: UInt64($0) &* 0x1234_5678_9ABC + seed) }
            var files: [SyncFolderFile] = []
            var truth: [SyncDeviceID: DeviceDay] = [:]
            var latestDelivered: [SyncDeviceID: DeviceDay] = [:]
            for device in devices {
                var current = DeviceDay(device: device, name: "d\(device.rawValue.suffix(3))", sequence: 0, written: noon, day: day)
                var versions: [DeviceDay] = []
                for write in 0..<Int.random(in: 1...30, using: &random) {
                    let app = AppID("app\(Int.random(in: 0..<5, using: &random))")
                    current.add(Int64.random(in: 1...600_000, using: &random), app: app, groups: ["g\(app.rawValue.suffix(1))"],
                                hour: Int.random(in: 0..<24, using: &random))
                    if Int.random(in: 0..<6, using: &random) == 0 {
                        current.bypasses.insert(.init(at: noon.addingTimeInterval(Double(write)), app: app, rule: .limit, granted: 900))
                    }
                    current.sequence += 1
                    versions.append(current)
                }
                truth[device] = current
                // What reaches the folder: the last version delivered under the real name, some
                // earlier ones as conflict copies, duplicates, torn copies and temporary files.
                let deliveredCount = Int.random(in: 1...versions.count, using: &random)
                let main = versions[deliveredCount - 1]
                latestDelivered[device] = main
                files.append(file(main))
                for (index, version) in versions.prefix(deliveredCount).enumerated() where Bool.random(using: &random) {
                    let text = version.encoded()
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: files.append(file(version, name: "2026-12-02.sync-conflict-20261202-1200\(index)-X.day"))
                    case 1: files.append(file(version, name: "2026-12-02 (conflicted copy \(index)).day"))
                    case 2: files.append(file(version, name: ".syncthing.2026-12-02.day.\(index).tmp",
                                              text: String(text.prefix(Int.random(in: 0..<text.utf8.count, using: &random)))))
                    default:
                        files.append(file(version, name: "2026-12-02.sync-conflict-torn\(index).day",
                                          text: String(text.prefix(Int.random(in: 0..<(text.utf8.count - 1), using: &random)))))
                    }
                }
            }
            files.shuffle(using: &random)
            let reading = SyncFolderReading(files)
            let usage = reading.usage(on: day)
            var expectedApps: [AppID: Int64] = [:]
            var expectedGroups: [String: Int64] = [:]
            for device in devices {
                let read = try XCTUnwrap(reading.devices[device]?.days[day], "seed \(seed)")
                let delivered = latestDelivered[device]!
                XCTAssertEqual(read, delivered, "seed \(seed): the latest delivered version, neither more nor less")
                XCTAssertTrue(truth[device]!.holds(read), "seed \(seed): never more than was used")
                XCTAssertEqual(reading.devices[device]?.clashingDays, [], "seed \(seed)")
                for (app, hours) in delivered.apps { expectedApps[app, default: 0] += hours.total }
                for (group, hours) in delivered.groups { expectedGroups[group, default: 0] += hours.total }
            }
            XCTAssertEqual(usage.apps, expectedApps.mapValues { Double($0) / 1000 }, "seed \(seed)")
            XCTAssertEqual(usage.groups, expectedGroups.mapValues { Double($0) / 1000 }, "seed \(seed)")
            XCTAssertTrue(reading.damaged.allSatisfy { $0.path.contains("torn") }, "seed \(seed): \(reading.damaged)")
        }
    }

    /// A year of three devices' days (20 apps over 12 hours a day) reads in time linear in the
    /// files: a full year takes well under 8 times a quarter's (a quadratic merge would take 16).
    /// Both are timed in the same run, the faster of two each, so a loaded machine slows both
    /// alike; the year's absolute figure is printed.
    func testAYearOfThreeDevicesReadsInLinearTime() throws {
        var files: [SyncFolderFile] = []
        var bytes = 0
        for offset in 0..<365 {
            for device in [laptop, desktop, SyncDeviceID("00000000000000cc")!] {
                var deviceDay = DeviceDay(device: device, name: "d", sequence: UInt64(offset), written: noon, day: day.adding(days: -offset))
                for app in 0..<20 { for hour in 8..<20 { deviceDay.add(Int64(app * 1000 + hour), app: AppID("org.example.App\(app)"), groups: ["content"], hour: hour) } }
                let text = deviceDay.encoded()
                bytes += text.utf8.count
                files.append(file(deviceDay, text: text))
            }
        }
        let quarter = Array(files.prefix(files.count / 4))
        func fastestRead(_ files: [SyncFolderFile]) -> Duration {
            (0..<2).map { _ in ContinuousClock().measure { _ = SyncFolderReading(files) } }.min()!
        }
        let (year, quarterYear) = (fastestRead(files), fastestRead(quarter))
        print("sync-figure: a year of three devices (\(files.count) files, \(bytes / 1024) KiB) parsed and merged in \(year); a quarter in \(quarterYear)")
        let reading = SyncFolderReading(files)
        XCTAssertEqual(reading.devices.count, 3)
        XCTAssertEqual(reading.devices.values.map(\.days.count), [365, 365, 365])
        XCTAssertLessThan(year, quarterYear * 8, "reading grows faster than the files")
    }
}
