@testable import Agent
import XCTest

final class LogindWatchTests: XCTestCase {
    func testSessionPathsAreEscapedAsLogindDoes() {
        XCTAssertEqual(LogindWatch.sessionPath(id: "2"), "/org/freedesktop/login1/session/_32")
        XCTAssertEqual(LogindWatch.sessionPath(id: "c12"), "/org/freedesktop/login1/session/c12")
        XCTAssertEqual(LogindWatch.sessionPath(id: "a-b"), "/org/freedesktop/login1/session/a_2db")
    }
}
