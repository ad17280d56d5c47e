import Foundation
import ScreenTimeCore
import XCTest

final class ColorFilterFadeTests: XCTestCase {
    private let start = Date(timeIntervalSince1970: 1_000_000)
    private var fade: ColorFilterFade { ColorFilterFade(from: .none, to: .grayscale, start: start) }

    func testStartsAtTheOriginAndEndsAtTheTarget() {
        XCTAssertEqual(fade.frame(at: start).filter, .none)
        XCTAssertEqual(fade.frame(at: start).next, start.addingTimeInterval(ColorFilterFade.stepInterval))
        let end = fade.frame(at: start.addingTimeInterval(ColorFilterFade.duration))
        XCTAssertEqual(end.filter, .grayscale)
        XCTAssertNil(end.next)
    }

    func testHalfwayIsTheBlend() {
        let half = fade.frame(at: start.addingTimeInterval(ColorFilterFade.duration / 2))
        XCTAssertEqual(half.filter.saturation, 0.5, accuracy: 1e-9)
    }

    func testFollowingTheDeadlinesTakesTheStepCount() {
        var steps = 0
        var next: Date? = start
        while let due = next, steps <= ColorFilterFade.steps { next = fade.frame(at: due).next; steps += 1 }
        XCTAssertEqual(steps, ColorFilterFade.steps + 1, "the origin, then one frame per step")
    }

    func testALateLoopSkipsStepsInsteadOfStretchingTheFade() {
        let late = fade.frame(at: start.addingTimeInterval(ColorFilterFade.stepInterval * 5.5))
        XCTAssertEqual(late.next, start.addingTimeInterval(ColorFilterFade.stepInterval * 6))
        XCTAssertNil(fade.frame(at: start.addingTimeInterval(ColorFilterFade.duration * 3)).next)
    }

    func testAClockBeforeTheStartShowsTheOrigin() {
        XCTAssertEqual(fade.frame(at: start.addingTimeInterval(-5)).filter, .none)
    }
}
