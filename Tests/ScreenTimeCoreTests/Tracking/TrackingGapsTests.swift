import FoundationEssentials
import ScreenTimeCore
import XCTest

/// The spans the agent missed, found at its start from its last run and the session's facts.
final class TrackingGapsTests: XCTestCase {
    let t0 = Date(timeIntervalSince1970: 1_795_910_400)
    func at(_ minutes: Double) -> Date { t0.addingTimeInterval(minutes * 60) }

    func testAStopInTheSameSessionIsStoppedWithItsSignal() {
        let run = AgentRun(started: at(0), alive: at(30), ended: at(30), endReason: "signal 15", session: "3")
        XCTAssertEqual(TrackingGaps.found(last: run, session: "3", sessionStart: at(-10), bootTime: at(-20), now: at(45)),
                       [UntrackedSpan(start: at(30), end: at(45), cause: .stopped, detail: "SIGTERM")])
    }

    func testNoEndIsAKillOrCrashFromTheLastSignOfLife() {
        let run = AgentRun(started: at(0), alive: at(29), session: "")
        XCTAssertEqual(TrackingGaps.found(last: run, session: "", sessionStart: nil, bootTime: at(-20), now: at(45)),
                       [UntrackedSpan(start: at(29), end: at(45), cause: .endedUnexpectedly)])
    }

    func testANewSessionWithoutTheAgentCountsFromItsStart() {
        let run = AgentRun(started: at(0), alive: at(30), ended: at(30), endReason: "signal 15", session: "3")
        XCTAssertEqual(TrackingGaps.found(last: run, session: "4", sessionStart: at(600), bootTime: at(590), now: at(700)),
                       [UntrackedSpan(start: at(600), end: at(700), cause: .noAgent)])
        // The agent started with the session (within a minute) missed nothing.
        XCTAssertEqual(TrackingGaps.found(last: run, session: "4", sessionStart: at(600), bootTime: at(590), now: at(600.5)), [])
    }

    func testARebootWithNoSessionKnownIsNoSpan() {
        let run = AgentRun(started: at(0), alive: at(30), ended: at(30), endReason: "signal 15")
        XCTAssertEqual(TrackingGaps.found(last: run, session: "", sessionStart: nil, bootTime: at(500), now: at(700)), [])
    }

    func testARestartIsNoSpanAndTheFirstRunHasNone() {
        let run = AgentRun(started: at(0), alive: at(30), ended: at(30), endReason: "signal 15")
        XCTAssertEqual(TrackingGaps.found(last: run, session: "", sessionStart: nil, bootTime: nil, now: at(30.05)), [])
        XCTAssertEqual(TrackingGaps.found(last: nil, session: "1", sessionStart: at(-60), bootTime: nil, now: at(0)), [])
    }

    func testTheWordsStateFacts() {
        let zone = FixedOffsetZone(seconds: 3600)
        let span = UntrackedSpan(start: at(2), end: at(35), cause: .stopped, detail: "SIGTERM")
        XCTAssertEqual(span.line(in: zone), "01:02–01:35 (33m): the agent was stopped (SIGTERM)")
    }

    /// logind is asked when the session began only where that decides: a run of another session,
    /// or one of the two runs naming none; never for the same session or a first run.
    func testTheSessionStartIsNeededOnlyWhereItDecides() {
        let run = AgentRun(started: at(0), alive: at(30), ended: at(30), endReason: "signal 15", session: "3")
        XCTAssertFalse(TrackingGaps.needsSessionStart(last: nil, session: "3"))
        XCTAssertFalse(TrackingGaps.needsSessionStart(last: run, session: "3"))
        XCTAssertTrue(TrackingGaps.needsSessionStart(last: run, session: "4"))
        XCTAssertTrue(TrackingGaps.needsSessionStart(last: run, session: ""))
        XCTAssertTrue(TrackingGaps.needsSessionStart(last: AgentRun(started: at(0), alive: at(29), session: ""), session: "4"))
    }
}
