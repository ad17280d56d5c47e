import Foundation
import ScreenTimeCore
import Harnesses
import WaylandBackend
import XCTest

/// The generic Wayland providers on a real KWin 5.27 (virtual output).
final class KWinWaylandProvidersTests: XCTestCase {
    private var kwin: KWinHarness!

    override func setUpWithError() throws {
        kwin = try KWinHarness.shared()
    }

    /// KWin offers `ext_idle_notifier_v1`. The virtual output has no input to fake, so only going
    /// idle is checked here (coming back: on sway).
    func testIdleComesFromExtIdleNotify() throws {
        let provider = try WaylandIdleProvider(environment: kwin.environment, threshold: 0.3)
        defer { provider.close() }
        XCTAssertEqual(provider.providerName, "Wayland idle (ext_idle_notifier_v1)")
        var transitions: [IdleTransition] = []
        provider.onIdle = { transitions.append($0) }
        XCTAssertTrue(try provider.pump { !transitions.isEmpty }, "no idle from KWin")
        XCTAssertEqual(transitions.first?.isActive, false)
    }

    /// The wlroots protocols are not KWin's: each provider says which global is missing.
    func testTheWlrootsProvidersNameWhatKWinLacks() {
        XCTAssertThrowsError(try ForeignToplevelProvider(environment: kwin.environment)) { error in
            XCTAssertEqual(error as? WaylandError, .missingGlobal(DesktopSelection.foreignToplevelGlobal))
        }
        XCTAssertThrowsError(try WlrGammaProvider(environment: kwin.environment)) { error in
            XCTAssertEqual(error as? WaylandError, .missingGlobal(DesktopSelection.gammaGlobal))
        }
    }
}
