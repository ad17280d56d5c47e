import ScreenTimeCore
import Harnesses
import XCTest
@testable import DisplayFilter

final class DisplayMethodChooserTests: XCTestCase {
    private func info(crtc: Bool, gammaSize: Int, hasCTM: Bool) -> OutputInfo {
        OutputInfo(output: Output(id: 1), name: "DP-2", crtc: crtc ? Crtc(id: 2) : nil, connected: true,
                   gammaSize: gammaSize, hasCTM: hasCTM)
    }

    func testPrefersCTMThenGammaThenNothing() throws {
        let desk = try DesktopHarness.shared()
        let randr = try RandRConnection(displayName: desk.display)
        defer { randr.close() }
        XCTAssertEqual(DisplayMethodChooser.method(for: info(crtc: true, gammaSize: 1024, hasCTM: true), randr: randr).report(for: .none).method, "randr-ctm")
        XCTAssertEqual(DisplayMethodChooser.method(for: info(crtc: true, gammaSize: 1024, hasCTM: false), randr: randr).report(for: .none).method, "randr-gamma")
        let dummy = DisplayMethodChooser.method(for: info(crtc: false, gammaSize: 0, hasCTM: false), randr: randr)
        XCTAssertEqual(dummy.report(for: .none).method, "dummy")
        XCTAssertEqual(dummy.limitations(for: .grayscale), ["filter not shown: no gamma ramp or CTM on DP-2"])
        XCTAssertEqual(dummy.limitations(for: .none), [])
    }

    func testAMethodThatFailsToStartFallsBackToTheNextThatCanDriveTheOutput() throws {
        XCTAssertTrue(DisplayMethodChooser.fallback(after: RandRCTMMethod.self, for: info(crtc: true, gammaSize: 1024, hasCTM: true)) == GammaRampMethod.self)
        XCTAssertTrue(DisplayMethodChooser.fallback(after: RandRCTMMethod.self, for: info(crtc: false, gammaSize: 0, hasCTM: true)) == DummyDisplayMethod.self)
        XCTAssertNil(DisplayMethodChooser.fallback(after: DummyDisplayMethod.self, for: info(crtc: true, gammaSize: 1024, hasCTM: true)))

        // On the real X server, a CRTC it does not have: reading its ramp fails (BadRRCrtc), so
        // the gamma method cannot start and the output gets the dummy, which changes nothing.
        let desk = try DesktopHarness.shared()
        let randr = try RandRConnection(displayName: desk.display)
        defer { randr.close() }
        let missing = OutputInfo(output: Output(id: 1), name: "DP-9", crtc: Crtc(id: 0x7fff_fff0), connected: true, gammaSize: 256, hasCTM: false)
        let gamma = DisplayMethodChooser.method(for: missing, randr: randr)
        XCTAssertEqual(gamma.report(for: .none).method, "randr-gamma")
        XCTAssertThrowsError(try gamma.start())
        let started = try DisplayMethodChooser.start(DisplayMethodChooser.method(for: missing, randr: randr))
        XCTAssertEqual(started.report(for: .none).method, "dummy")
        XCTAssertNotNil(started.originals)
    }
}
