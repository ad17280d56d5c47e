import XCTest
@testable import ScreenTimeCore

final class ElementaryTests: XCTestCase {
    func testLogAndExpAgreeWithLibm() {
        for x in [1e-9, 0.001, 0.5, 1, 1.5, 2, 10, 40, 65, 1234.5, 1e12] {
            XCTAssertEqual(Elementary.log(x), Foundation.log(x), accuracy: 1e-13 * max(1, abs(Foundation.log(x))), "log \(x)")
        }
        for x in [-20.0, -1, -0.1, 0, 0.3, 1, 5, 30] {
            XCTAssertEqual(Elementary.exp(x), Foundation.exp(x), accuracy: 1e-14 * Foundation.exp(x), "exp \(x)")
        }
        XCTAssertEqual(Elementary.pow(6, -0.1332047592), Foundation.pow(6, -0.1332047592), accuracy: 1e-14)
    }
}
