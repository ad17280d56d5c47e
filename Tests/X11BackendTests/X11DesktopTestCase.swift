import Harnesses
import X11Backend
import XCTest

/// The fixture the X11 backend tests share: the harness's desktop, a test client that opens
/// windows, and a fresh connection for the code under test; windows a test opened are closed after it.
class X11DesktopTestCase: XCTestCase {
    var client: TestWindowClient!
    var connection: X11Connection!
    var opened: [TestWindow] = []

    override func setUpWithError() throws {
        _ = try DesktopHarness.shared()
        client = try TestWindowClient()
        connection = try X11Connection()
    }

    override func tearDown() {
        opened.forEach { client.close($0) }
        opened = []
        connection.close()
    }
}
