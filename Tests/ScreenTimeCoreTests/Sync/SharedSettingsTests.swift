import Foundation
import ScreenTimeCore
import Harnesses
import XCTest

final class SharedSettingsTests: XCTestCase {
    let laptop = SyncDeviceID("00000000000000aa")!
    let desktop = SyncDeviceID("00000000000000bb")!
    let firefox = SharedSettingKey(section: "limits", key: "firefox")

    func testOnlyTheBudgetsKeysAreShared() throws {
        let file = try KeyFile(parsing: "[general]\nidle-after = 5m\ncontinue-for = 10m\n[limits]\nfirefox = 1h\n[privacy]\ntitles = none\n"
                               + "[calendars]\npaths = ~/cal.ics\n[schedule]\nmon = 09:00-17:00 productivity\n")
        XCTAssertEqual(SharedSettingKey.values(of: file), [
            SharedSettingKey(section: "general", key: "continue-for"): "10m", firefox: "1h",
            SharedSettingKey(section: "schedule", key: "mon"): "09:00-17:00 productivity",
        ])
    }

    func testAViewReadsBackAsWrittenAndATornOneIsRefused() throws {
        let view = SettingsChanges(device: laptop, name: "Anna's\tlaptop", settings: [
            firefox: StampedSetting(stamp: 1_796_212_800_000, device: desktop, value: "1h\t30m"),
            SharedSettingKey(section: "groups", key: "content"): StampedSetting(stamp: 0, device: laptop, value: nil),
        ])
        XCTAssertEqual(try SettingsChanges.parse(view.encoded()), view)
        let text = view.encoded()
        XCTAssertThrowsError(try SettingsChanges.parse(String(text.dropLast(4))))
        XCTAssertThrowsError(try SettingsChanges.parse("screentime-settings\t2\n"))
    }

    /// The later stamp wins each key, then the greater device id; whatever order the views are
    /// merged in, and however often one comes, the result is the same.
    func testSeededRandomViewsMergeTheSameInAnyOrder() {
        for seed in SplitMix64.seeds(count: 40, environment: ProcessInfo.processInfo.environment) {
            var random = SplitMix64(seed: seed)
            let devices = (0..<4).map { SyncDeviceID(randomBits: UInt64($0) + seed) }
            let keys = (0..<6).map { SharedSettingKey(section: "limits", key: "app\($0)") }
            let views: [[SharedSettingKey: StampedSetting]] = devices.map { device in
                var view: [SharedSettingKey: StampedSetting] = [:]
                for key in keys where Bool.random(using: &random) {
                    // Few distinct stamps, so ties between devices happen.
                    view[key] = StampedSetting(stamp: Int64.random(in: 0...3, using: &random), device: devices.randomElement(using: &random)!,
                                               value: Bool.random(using: &random) ? "\(Int.random(in: 1...9, using: &random))h" : nil)
                }
                return view
            }
            let merged = SettingsChanges.merged(views)
            for _ in 0..<5 {
                var shuffled = views + views.prefix(Int.random(in: 0...views.count, using: &random))
                shuffled.shuffle(using: &random)
                XCTAssertEqual(SettingsChanges.merged(shuffled), merged, "seed \(seed)")
            }
            for (key, winner) in merged {
                for view in views { if let other = view[key] { XCTAssertFalse(other.beats(winner), "seed \(seed)") } }
            }
        }
    }
}
