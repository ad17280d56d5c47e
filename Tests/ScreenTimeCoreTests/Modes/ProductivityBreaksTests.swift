import FoundationEssentials
import ScreenTimeCore
import XCTest

final class ProductivityBreaksTests: XCTestCase {
    /// Settings the config would refuse (a rhythm of a nanosecond, a negative length) still give an
    /// answer at once rather than a loop of 10^14 turns.
    func testAbsurdRhythmStillAnswers() {
        var breaks = ProductivityBreaks()
        breaks.every = 1e-9
        breaks.length = -3600
        let since = Date(timeIntervalSince1970: 1_800_000_000)
        let state = breaks.state(at: since.addingTimeInterval(2 * 86_400), productivitySince: since, requested: [])
        guard case .working(let next)? = state else { return XCTFail("\(String(describing: state))") }
        XCTAssertGreaterThan(next, since.addingTimeInterval(2 * 86_400))
    }

    /// A break asked for at the very instant the mode is decided, read back from the store a few
    /// hundred nanoseconds later than it was written (Unix seconds to Date and back): it starts now.
    /// (One run in five of the agent's break test left dunst paused before.)
    func testABreakAskedForNowCountsThoughItsStoredTimeReadsBackJustAfter() {
        var breaks = ProductivityBreaks()
        breaks.every = 3600
        breaks.length = 300
        let since = Date(timeIntervalSince1970: 1_796_177_167.603109)
        let now = Date(timeIntervalSince1970: 1_796_177_167.6729598)
        let storedRequest = now.addingTimeInterval(0.000_000_3)
        XCTAssertEqual(breaks.state(at: now, productivitySince: since, requested: [storedRequest]),
                       .onBreak(since: now, until: now.addingTimeInterval(300)))
        XCTAssertEqual(breaks.state(at: now, productivitySince: now.addingTimeInterval(0.000_000_3), requested: []),
                       .working(nextBreak: now.addingTimeInterval(3600)), "a switch made now, read back just after")
        XCTAssertEqual(breaks.state(at: now, productivitySince: since, requested: [now.addingTimeInterval(1)]),
                       .working(nextBreak: since.addingTimeInterval(3600)), "a request in the future is not taken")
    }

    /// Productivity on for longer than the resolver looks back (three days of a manual switch
    /// with nothing else to end it): deciding again ten minutes later finds the same next break,
    /// rather than a rhythm moved along with the look-back (a break cut short at every decision).
    func testAStretchLongerThanTheLookBackKeepsItsBreaksWhenDecidedAgain() {
        let start = Date(timeIntervalSince1970: 1_800_000_123)
        var inputs = ModeInputs()
        inputs.automatic.isEnabled = false
        inputs.manual = ManualSwitch(mode: .productivity, since: start)
        let resolver = ModeResolver(inputs: inputs, zone: FixedOffsetZone(seconds: 0))
        var instant = start.addingTimeInterval(3 * 86_400)
        var nextBreaks: Set<Date> = []
        while instant < start.addingTimeInterval(3 * 86_400 + 3 * 3600) {
            let decision = resolver.resolve(at: instant)
            XCTAssertNil(decision.since, "the fixture: the switch is further back than the resolver looks")
            switch decision.productivityBreak {
            case .working(let next)?: nextBreaks.insert(next)
            case .onBreak(let since, let until)?: XCTAssertEqual(until.timeIntervalSince(since), inputs.breaks.length)
            case nil: XCTFail("no rhythm")
            }
            instant.addTimeInterval(600)
        }
        XCTAssertEqual(nextBreaks.count, 3, "one next break per hour and five minutes: \(nextBreaks.sorted())")
    }
}
