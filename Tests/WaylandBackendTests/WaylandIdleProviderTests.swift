import Foundation
import ScreenTimeCore
import Harnesses
import WaylandBackend
import XCTest

/// On a real headless sway 1.7, which offers `org_kde_kwin_idle`; activity is a cursor move.
final class WaylandIdleProviderTests: XCTestCase {
    private var sway: SwayHarness!
    private var transitions: [IdleTransition] = []

    override func setUpWithError() throws {
        sway = try SwayHarness.shared()
    }

    private func connect(threshold: TimeInterval) throws -> WaylandIdleProvider {
        // Activity first, so an idle timer of an earlier test does not carry over.
        try sway.swaymsg(["seat", "seat0", "cursor", "move", "1", "1"])
        let provider = try WaylandIdleProvider(environment: sway.environment, threshold: threshold)
        provider.onIdle = { [unowned self] in transitions.append($0) }
        addTeardownBlock { provider.close() }
        return provider
    }

    func testIdleIsDatedWhenTheThresholdIsCrossedAndActivityEndsIt() throws {
        let provider = try connect(threshold: 0.5)
        XCTAssertEqual(provider.providerName, "Wayland idle (org_kde_kwin_idle)")
        let started = Date()
        XCTAssertTrue(try provider.pump { !transitions.isEmpty }, "no idle transition")
        guard case .becameIdle(let at) = transitions.first else { return XCTFail("\(transitions)") }
        XCTAssertGreaterThanOrEqual(at.timeIntervalSince(started), 0.5, "idle before the threshold passed")
        XCTAssertLessThanOrEqual(at, Date())

        let moved = Date()
        try sway.swaymsg(["seat", "seat0", "cursor", "move", "5", "5"])
        XCTAssertTrue(try provider.pump { transitions.count == 2 }, "no active transition after input: \(transitions)")
        guard case .becameActive(let back) = transitions.last else { return XCTFail("\(transitions)") }
        XCTAssertGreaterThanOrEqual(back, moved)
    }

    func testActivityKeepsTheUserActive() throws {
        let provider = try connect(threshold: 1)
        for _ in 0..<8 {
            try sway.swaymsg(["seat", "seat0", "cursor", "move", "3", "3"])
            _ = try provider.pump(timeout: 0.25) { false }
        }
        XCTAssertEqual(transitions, [], "input every 0.25 s never reaches a 1 s threshold")
    }

    func testANewThresholdStartsFromActiveAndIdlesAgain() throws {
        let provider = try connect(threshold: 0.3)
        XCTAssertTrue(try provider.pump { transitions.count == 1 }, "no idle transition")
        try provider.setThreshold(0.6)
        XCTAssertEqual(transitions.count, 2)
        XCTAssertEqual(transitions.last?.isActive, true, "the new watch starts from active: \(transitions)")
        XCTAssertTrue(try provider.pump { transitions.count == 3 }, "the new watch did not report idle: \(transitions)")
        XCTAssertEqual(transitions.last?.isActive, false)
    }
}
