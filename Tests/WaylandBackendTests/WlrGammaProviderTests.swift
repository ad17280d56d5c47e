import Foundation
import ScreenTimeCore
import Harnesses
@testable import WaylandBackend
import XCTest

final class WlrGammaProviderTests: XCTestCase {
    func testWarmRampsKeepRedAndCutBlue() {
        let ramps = WlrGammaProvider.ramps(size: 4, filter: .warm(kelvin: 4000))
        XCTAssertEqual(ramps.count, 12)
        let (red, green, blue) = (Array(ramps[0..<4]), Array(ramps[4..<8]), Array(ramps[8..<12]))
        XCTAssertEqual(red.first, 0)
        XCTAssertEqual(red.last, 65535)
        XCTAssertLessThan(blue.last!, green.last!)
        XCTAssertLessThan(green.last!, red.last!)
        XCTAssertEqual(red, red.sorted(), "a ramp rises")
    }

    func testGrayscaleIsShownAsDimming() {
        let ramps = WlrGammaProvider.ramps(size: 2, filter: .grayscale)
        let dimmed = UInt16((65535 * ColorFilter.grayscaleStandInBrightness).rounded())
        XCTAssertEqual(ramps, [0, dimmed, 0, dimmed, 0, dimmed])
    }

    func testIdentityRampsAreLinear() {
        XCTAssertEqual(WlrGammaProvider.ramps(size: 3, filter: .none), [0, 32768, 65535, 0, 32768, 65535, 0, 32768, 65535])
    }

    /// Headless sway answers `failed` to a gamma control: reported per output, the fade still
    /// runs to its end, and restoring is clean.
    func testHeadlessSwayRefusesGammaAndThatIsReported() throws {
        let sway = try SwayHarness.shared()
        let provider = try WlrGammaProvider(environment: sway.environment)
        defer { provider.close() }
        XCTAssertEqual(provider.abilities, ScreenFilterAbilities(grayscale: false, warmth: true))
        XCTAssertEqual(provider.refusals, [])
        var told: [String] = []
        provider.onRefusal = { told.append($0) }

        let start = Date()
        var next = try provider.set(.warm(), now: start)
        XCTAssertNotNil(next, "a fade has steps")
        XCTAssertTrue(try provider.pump { !provider.refusals.isEmpty }, "no refusal from headless sway")
        XCTAssertEqual(provider.refusals.count, 1, "\(provider.refusals)")
        XCTAssertTrue(provider.refusals[0].contains("refused its gamma"), provider.refusals[0])
        XCTAssertEqual(provider.outputsFiltered, 0)
        XCTAssertEqual(told, provider.refusals, "each refusal is told as it arrives")

        var steps = 0
        while let due = next, steps < 100 {
            next = try provider.step(now: due)
            steps += 1
        }
        XCTAssertEqual(provider.shown, .warm())
        XCTAssertEqual(steps, ColorFilterFade.steps)

        provider.restore()
        XCTAssertEqual(provider.shown, .none)
        XCTAssertEqual(provider.refusals, [], "restoring gives every output back")
        XCTAssertFalse(try provider.pump(timeout: 0.3) { false }, "the connection stays healthy")
    }

    /// An output plugged in while a filter is on is asked for its gamma too (headless: refused).
    /// (Unplugging is not checked: sway 1.7 has no `unplug`, and a disabled output keeps its global.)
    func testAnOutputPluggedInWhileFilteringIsTakenToo() throws {
        let sway = try SwayHarness(notifications: false)
        defer { sway.stop() }
        let provider = try WlrGammaProvider(environment: sway.environment)
        defer { provider.close() }
        _ = try provider.set(.warm(), now: Date())
        XCTAssertTrue(try provider.pump { provider.refusals.count == 1 }, "\(provider.refusals)")
        try sway.swaymsg(["create_output"])
        XCTAssertTrue(try provider.pump { provider.refusals.count == 2 }, "the new output was not asked: \(provider.refusals)")
    }
}
