import FoundationEssentials
import ScreenTimeCore
import Harnesses
import XCTest

final class AutomaticModesTests: XCTestCase {
    let zone = CentralEuropeanZone()

    /// `screentime bedtime` before Wind Down would start, then `screentime stay-up` (the command
    /// Sleep's status line suggests): Wind Down has no span to pause, and asking must not trap.
    func testStayUpAfterBedtimeSaidBeforeWindDown() {
        var inputs = ModeInputs()
        inputs.sleepActions.bedtimeAt = zone.at("2026-03-16 20:00")
        inputs.sleepActions.stayUpAt = zone.at("2026-03-16 20:05")
        let decision = ModeResolver(inputs: inputs, zone: zone).resolve(at: zone.at("2026-03-16 20:06"))
        XCTAssertEqual(decision.mode, .sleep)
        XCTAssertNotNil(decision.next)
    }

    /// A bedtime soon after noon (a night shift's): "Go to bed" said in its Wind Down, before noon,
    /// is Sleep, not a word for a night that has not begun. The agent's tests pin bedtime half an
    /// hour after the wall clock, and between 11:00 and 12:00 "Go to bed" was dropped.
    func testBedtimeSaidInAWindDownThatStartsBeforeNoon() {
        var inputs = ModeInputs()
        inputs.sleepTimes = SleepTimes(bedtime: WallTime(hour: 12, minute: 13), wakeTime: WallTime(hour: 19, minute: 43))
        let now = zone.at("2026-03-16 11:43")
        XCTAssertEqual(ModeResolver(inputs: inputs, zone: zone).resolve(at: now).mode, .windDown)
        inputs.sleepActions.bedtimeAt = now
        let decision = ModeResolver(inputs: inputs, zone: zone).resolve(at: now.addingTimeInterval(1))
        XCTAssertEqual(decision.mode, .sleep)
        XCTAssertEqual(decision.next?.mode, .wakeUp)
    }

    /// With the time-of-day modes off, "Go to bed" (the card's, `screentime bedtime`, which says
    /// "Sleep mode is on until the morning") is still Sleep, until the night's Wake Up would begin;
    /// nothing else of the night comes by itself, neither before it nor after.
    func testGoToBedIsSleepWithTheTimeOfDayModesOff() {
        var inputs = ModeInputs()
        inputs.automatic.isEnabled = false
        let said = zone.at("2026-03-16 21:30")
        XCTAssertEqual(ModeResolver(inputs: inputs, zone: zone).resolve(at: said).mode, .standard, "the fixture: off, no Wind Down")
        inputs.sleepActions.bedtimeAt = said
        let resolver = ModeResolver(inputs: inputs, zone: zone)
        XCTAssertEqual(resolver.resolve(at: said.addingTimeInterval(1)).mode, .sleep)
        XCTAssertEqual(resolver.resolve(at: zone.at("2026-03-17 03:00")).mode, .sleep)
        // The default wake time is 07:00: Wake Up would begin at 06:00.
        XCTAssertEqual(resolver.resolve(at: zone.at("2026-03-17 05:59")).mode, .sleep)
        XCTAssertEqual(resolver.resolve(at: zone.at("2026-03-17 06:01")).mode, .standard, "no Wake Up by itself")
        XCTAssertEqual(resolver.resolve(at: zone.at("2026-03-17 22:30")).mode, .standard, "nor the next evening's Wind Down")
        inputs.sleepActions.startDayAt = zone.at("2026-03-17 01:00")
        XCTAssertEqual(ModeResolver(inputs: inputs, zone: zone).resolve(at: zone.at("2026-03-17 01:01")).mode, .standard, "start-day ends it")
    }

    /// The largest offsets the config allows, every sleep action at once: still a decision.
    func testLargestOffsetsWithEveryAction() {
        var inputs = ModeInputs()
        for value in [0, DurationBounds.sleepOffset.upperBound] {
            inputs.automatic.windDownBeforeBedtime = value
            inputs.automatic.sleepAfterWindDown = DurationBounds.sleepOffset.upperBound - value
            inputs.automatic.wakeUpBeforeWakeTime = DurationBounds.sleepOffset.upperBound
            inputs.automatic.wakeUpAfterWakeTime = value
            inputs.automatic.stayUpPause = DurationBounds.sleepOffset.upperBound
            let now = zone.at("2026-03-16 22:00")
            inputs.sleepActions = SleepActions(stayUpAt: now, bedtimeAt: now.addingTimeInterval(-60), startDayAt: now.addingTimeInterval(-120))
            let decision = ModeResolver(inputs: inputs, zone: zone).resolve(at: now)
            XCTAssertFalse(decision.reason.explanation(zone: zone).isEmpty)
        }
    }
}
