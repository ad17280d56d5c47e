import ScreenTimeCore
import TestSupport
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
}
