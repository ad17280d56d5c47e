import Foundation
import ScreenTimeCore
import Harnesses
import X11Backend
import XCTest

/// The idle watch on the shared Xvfb, with input from `xdotool mousemove` (XTest).
final class X11IdleWatchTests: XCTestCase {
    var desk: DesktopHarness!
    var connection: X11Connection!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        connection = try X11Connection()
    }

    override func tearDown() {
        connection.close()
    }

    private func nudge() throws { try PointerNudge.move(on: desk) }

    /// Returns once the server's own idle counter (read on a connection of its own) says `seconds`
    /// without input.
    private func awayFor(_ seconds: TimeInterval) throws {
        let probeConnection = try X11Connection()
        defer { probeConnection.close() }
        let probe = try X11IdleWatch(connection: probeConnection, threshold: 60)
        try Wait.until("\(seconds) s without input") { try probe.idleSeconds() >= seconds }
    }

    func testXvfbGetsAlarmsAndNoTimer() throws {
        try nudge()
        let watch = try X11IdleWatch(connection: connection, threshold: 60)
        XCTAssertEqual(watch.mechanism, .syncAlarms)
        XCTAssertEqual(watch.backendName, "XSync IDLETIME alarms, XScreenSaver events")
        XCTAssertEqual(try watch.drainEvents(), [])
        XCTAssertTrue(watch.isActive)
        XCTAssertNil(watch.nextPoll(after: Date()), "nothing to wake up for until the server says so")
        XCTAssertLessThan(try watch.idleSeconds(), 5)
        XCTAssertFalse(try watch.screenSaverActive())
    }

    func testAlarmSaysIdleAtTheThresholdAndInputSaysActiveAtOnce() throws {
        let beforeInput = Date()
        try nudge()
        let afterInput = Date()
        let watch = try X11IdleWatch(connection: connection, threshold: 0.3)
        XCTAssertEqual(try watch.drainEvents(), [], "the pointer just moved")

        let idle = try watch.transitions(on: connection, within: 3)
        let woke = Date()
        guard idle.count == 1, case .becameIdle(let idleAt) = idle[0] else { return XCTFail("expected one .becameIdle, got \(idle)") }
        XCTAssertGreaterThanOrEqual(woke.timeIntervalSince(beforeInput), 0.3, "woken before the threshold")
        XCTAssertLessThan(woke.timeIntervalSince(afterInput), 1, "woken long after the threshold")
        XCTAssertGreaterThanOrEqual(idleAt, beforeInput.addingTimeInterval(0.3 - 0.02))
        XCTAssertLessThanOrEqual(idleAt, afterInput.addingTimeInterval(0.3 + 0.02))
        XCTAssertFalse(watch.isActive)
        XCTAssertNil(watch.nextPoll(after: Date()), "no polling while idle either")

        let beforeReturn = Date()
        try nudge()
        let afterReturn = Date()
        let back = try watch.transitions(on: connection, within: 2)
        let noticed = Date()
        guard back.count == 1, case .becameActive(let activeAt) = back[0] else { return XCTFail("expected one .becameActive, got \(back)") }
        XCTAssertLessThan(noticed.timeIntervalSince(afterReturn), 0.25, "the return was noticed late")
        XCTAssertGreaterThanOrEqual(activeAt, beforeReturn.addingTimeInterval(-0.02), "dated before the input")
        XCTAssertLessThanOrEqual(activeAt, afterReturn.addingTimeInterval(0.02), "dated after the input")
        XCTAssertTrue(watch.isActive)

        // And the alarm was set back to the threshold.
        let again = try watch.transitions(on: connection, within: 3)
        guard case .becameIdle(let againAt)? = again.first else { return XCTFail("expected .becameIdle again, got \(again)") }
        XCTAssertEqual(againAt.timeIntervalSince(activeAt), 0.3, accuracy: 0.03)
    }

    func testAUserAlreadyAwayIsReportedAtOnceWithTheRealTime() throws {
        try nudge()
        let afterInput = Date()
        try awayFor(0.4)
        let watch = try X11IdleWatch(connection: connection, threshold: 0.2)
        let transitions = try watch.drainEvents()
        guard transitions.count == 1, case .becameIdle(let at) = transitions[0] else { return XCTFail("\(transitions)") }
        XCTAssertLessThanOrEqual(at, afterInput.addingTimeInterval(0.2 + 0.02))
        XCTAssertGreaterThan(at, afterInput.addingTimeInterval(0.2 - 0.5))
    }

    func testChangingTheThresholdRearmsTheAlarm() throws {
        try nudge()
        let watch = try X11IdleWatch(connection: connection, threshold: 60)
        try awayFor(0.3)
        try watch.setThreshold(0.2)
        guard case .becameIdle? = try watch.drainEvents().first else { return XCTFail("0.3 s without input is idle at 0.2 s") }
        try watch.setThreshold(60)
        guard case .becameActive? = try watch.drainEvents().first else { return XCTFail("0.3 s without input is active at 60 s") }
        XCTAssertEqual(try watch.transitions(on: connection, within: 0.5), [], "an alarm at the old threshold fired")
    }

    func testServerScreenSaverIsIdleWithoutWaitingForTheThreshold() throws {
        try nudge()
        let watch = try X11IdleWatch(connection: connection, threshold: 60)
        defer { _ = try? desk.run("xset", ["s", "reset"]) }
        let before = Date()
        _ = try desk.run("xset", ["s", "activate"])
        let on = try watch.transitions(on: connection, within: 2)
        guard on.count == 1, case .becameIdle(let at) = on[0] else { return XCTFail("expected .becameIdle, got \(on)") }
        XCTAssertGreaterThanOrEqual(at, before)
        XCTAssertTrue(try watch.screenSaverActive())

        _ = try desk.run("xset", ["s", "reset"])
        let off = try watch.transitions(on: connection, within: 2)
        guard case .becameActive? = off.first else { return XCTFail("expected .becameActive, got \(off)") }
        XCTAssertFalse(try watch.screenSaverActive())
    }

    /// The fallback for servers without IDLETIME, forced here (Xvfb cannot disable SYNC).
    func testPollingFallbackReadsWhenTheThresholdWouldBeCrossed() throws {
        let beforeInput = Date()
        try nudge()
        let watch = try X11IdleWatch(connection: connection, threshold: 0.3, mechanism: .polling)
        XCTAssertEqual(watch.mechanism, .polling)
        XCTAssertEqual(watch.backendName, "XScreenSaver polling")
        let now = Date()
        let next = try XCTUnwrap(watch.nextPoll(after: now))
        XCTAssertLessThanOrEqual(next, beforeInput.addingTimeInterval(0.35))

        let idle = try watch.transitions(on: connection, within: 3)
        guard case .becameIdle? = idle.first else { return XCTFail("expected .becameIdle, got \(idle)") }
        let returnPoll = try XCTUnwrap(watch.nextPoll(after: Date())).timeIntervalSinceNow
        XCTAssertEqual(returnPoll, IdleCheck().returnPoll, accuracy: 0.2)

        let beforeReturn = Date()
        try nudge()
        try watch.recheck()
        guard case .becameActive(let at)? = try watch.drainEvents().first else { return XCTFail("recheck missed the return") }
        XCTAssertGreaterThanOrEqual(at, beforeReturn.addingTimeInterval(-0.02))
    }
}
