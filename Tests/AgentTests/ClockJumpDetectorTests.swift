@testable import Agent
import Foundation
import XCTest

final class ClockJumpDetectorTests: XCTestCase {
    let wall = Date(timeIntervalSince1970: 1_800_000_000)
    let monotonic = MonotonicInstant(nanoseconds: 5_000_000_000_000)

    func testTheFirstReadingAndClocksMovingTogetherAreNoJump() {
        var detector = ClockJumpDetector()
        XCTAssertNil(detector.check(wall: wall, monotonic: monotonic))
        XCTAssertNil(detector.check(wall: wall.addingTimeInterval(600), monotonic: monotonic.advanced(by: 600)))
        XCTAssertNil(detector.check(wall: wall.addingTimeInterval(601.5), monotonic: monotonic.advanced(by: 600)),
                     "drift within the tolerance is jitter")
    }

    func testASuspendIsAJumpEndingWhereTheMonotonicClockStopped() {
        var detector = ClockJumpDetector()
        _ = detector.check(wall: wall, monotonic: monotonic)
        let jump = detector.check(wall: wall.addingTimeInterval(7201), monotonic: monotonic.advanced(by: 1))
        XCTAssertEqual(jump, .init(lastSeen: wall.addingTimeInterval(1), now: wall.addingTimeInterval(7201)))
        XCTAssertEqual(jump?.size, 7200)
        XCTAssertNil(detector.check(wall: wall.addingTimeInterval(7202), monotonic: monotonic.advanced(by: 2)),
                     "the next reading starts from the new clock")
    }

    func testAStepBackIsAJump() {
        var detector = ClockJumpDetector()
        _ = detector.check(wall: wall, monotonic: monotonic)
        let jump = detector.check(wall: wall.addingTimeInterval(-3599), monotonic: monotonic.advanced(by: 1))
        XCTAssertEqual(jump?.lastSeen, wall.addingTimeInterval(1))
        XCTAssertEqual(jump?.size, -3600)
    }
}
