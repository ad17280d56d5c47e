import XCTest
@testable import Agent

/// The agent's options as its environment sets them.
final class AgentOptionsTests: XCTestCase {
    func testUsageIsWrittenEveryTenSecondsUnlessTheEnvironmentSaysOneToSixty() {
        XCTAssertEqual(AgentRunner.Options(environment: [:]).flushInterval, 10)
        for (given, expected) in [("2", 2.0), ("1", 1), ("60", 60), ("0", 10), ("61", 10), ("-5", 10), ("soon", 10), ("", 10)] {
            let options = AgentRunner.Options(environment: [AgentRunner.Options.flushVariable: given])
            XCTAssertEqual(options.flushInterval, expected, "SCREENTIME_FLUSH_SECONDS=\(given)")
        }
    }
}
