import SessionBus
import XCTest

final class BusAddressTests: XCTestCase {
    func testDropsTheGUIDOfEveryEntryAndKeepsTheRest() {
        XCTAssertEqual(BusAddress.withoutGUID("unix:path=/tmp/bus,guid=0123456789abcdef0123456789abcdef"), "unix:path=/tmp/bus")
        XCTAssertEqual(BusAddress.withoutGUID("unix:guid=ab,abstract=/tmp/x;tcp:host=localhost,port=1,guid=cd"),
                       "unix:abstract=/tmp/x;tcp:host=localhost,port=1")
        XCTAssertEqual(BusAddress.withoutGUID("unix:path=/run/user/1000/bus"), "unix:path=/run/user/1000/bus")
        XCTAssertEqual(BusAddress.withoutGUID("autolaunch:"), "autolaunch:")
    }
}
