@testable import SessionBus
import XCTest

final class PendingRepliesTests: XCTestCase {
    func testRepliesAreTakenOnceAndOverdueOnesInDeadlineOrder() {
        let start = ContinuousClock.now
        var pending = PendingReplies()
        var answered: [String] = []
        pending.add(serial: 7, deadline: start + .seconds(3)) { _ in answered.append("seven") }
        pending.add(serial: 8, deadline: start + .seconds(1)) { _ in answered.append("eight") }
        pending.add(serial: 9, deadline: start + .seconds(2)) { _ in answered.append("nine") }
        XCTAssertEqual(pending.nextDeadline, start + .seconds(1))

        pending.take(7)?(.success([]))
        XCTAssertNil(pending.take(7), "a reply is handled once")
        XCTAssertTrue(pending.takeOverdue(at: start).isEmpty)
        for handler in pending.takeOverdue(at: start + .seconds(5)) { handler(.success([])) }
        XCTAssertEqual(answered, ["seven", "eight", "nine"])
        XCTAssertTrue(pending.isEmpty)
        XCTAssertNil(pending.nextDeadline)
    }
}
