import Harnesses
import XCTest

/// A test on the one shared headless GNOME Shell: each test gets it, and closes the windows it
/// opened there.
class GnomeShellTestCase: XCTestCase {
    var shell: GnomeShellHarness!

    override func setUpWithError() throws {
        shell = try GnomeShellHarness.shared()
    }

    override func tearDown() {
        shell?.closeWindows()
        super.tearDown()
    }
}
