import XCTest
import UsageStore

final class StorePathsTests: XCTestCase {
    func testDefaultsUnderHomeLocalShare() {
        XCTAssertEqual(StorePaths.defaultDatabasePath(environment: ["HOME": "/home/ada"]),
                       "/home/ada/.local/share/screentime/screentime.db")
    }

    func testFollowsXDGDataHome() {
        XCTAssertEqual(StorePaths.defaultDatabasePath(environment: ["HOME": "/home/ada", "XDG_DATA_HOME": "/srv/data"]),
                       "/srv/data/screentime/screentime.db")
    }
}
