import Foundation
import ScreenTimeCore
import Harnesses
import XCTest
@testable import DisplayFilter

final class DisplayFilterControllerTests: XCTestCase {
    private var desk: DesktopHarness!
    private var fixture: RandRFixture!
    private var runtimeDirectory: String!
    private var controllers: [DisplayFilterController] = []

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
        fixture = try RandRFixture(displayName: desk.display)
        fixture.deleteCTM()
        fixture.setGamma(fixture.identityRamp())
        runtimeDirectory = desk.runtimeDirectory + "/display-test-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        for controller in controllers {
            try? controller.restore()
            controller.close()
        }
        controllers = []
        fixture?.deleteCTM()
        fixture?.setGamma(fixture.identityRamp())
    }

    private func makeController() throws -> DisplayFilterController {
        let controller = try DisplayFilterController(displayName: desk.display, runtimeDirectory: runtimeDirectory)
        controllers.append(controller)
        return controller
    }

    private func composed(_ ramp: RandRFixture.Ramp, _ filter: ColorFilter) -> RandRFixture.Ramp {
        let gains = filter.channelGains
        func scale(_ channel: [UInt16], _ gain: Double) -> [UInt16] {
            channel.map { UInt16((Double($0) * gain).rounded()) }
        }
        return .init(red: scale(ramp.red, gains.red), green: scale(ramp.green, gains.green), blue: scale(ramp.blue, gains.blue))
    }

    private func savedFiles(_ controller: DisplayFilterController) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: controller.savedStatePath)) ?? []
    }

    // MARK: Gamma ramps

    func testXvfbOffersGammaButNoCTM() throws {
        let reports = try makeController().start()
        XCTAssertEqual(reports, [DisplayOutputReport(name: fixture.outputName, gammaSize: 256, hasCTM: false, method: "randr-gamma")])
    }

    func testWarmFilterReadsBackAsWarmRamps() throws {
        let controller = try makeController()
        try controller.start()
        XCTAssertNil(try controller.setFilter(.warm(kelvin: 4000), now: Date(), fade: false))

        let ramp = fixture.gamma()
        XCTAssertEqual(ramp, composed(fixture.identityRamp(), .warm(kelvin: 4000)))
        XCTAssertEqual(ramp.red.last, 65535)
        XCTAssertLessThan(ramp.green.last!, 59_000)
        XCTAssertLessThan(ramp.blue.last!, ramp.green.last!)
        XCTAssertEqual(controller.shown, .warm(kelvin: 4000))
    }

    func testRestorePutsBackTheOriginalRampsToTheLastEntry() throws {
        let original = fixture.nightLightRamp()
        fixture.setGamma(original)
        let controller = try makeController()
        try controller.start()
        try controller.setFilter(ColorFilter(temperature: 3000, brightness: 0.6), now: Date(), fade: false)
        XCTAssertNotEqual(fixture.gamma(), original)
        XCTAssertFalse(savedFiles(controller).isEmpty, "originals are on disk while filtered")

        try controller.restore()
        XCTAssertEqual(fixture.gamma(), original)
        XCTAssertEqual(fixture.gamma().blue.last, original.blue.last)
        XCTAssertEqual(savedFiles(controller), [], "a clean restore leaves no originals behind")

        try controller.restore() // twice is harmless
        XCTAssertEqual(fixture.gamma(), original)
    }

    func testNightLightRampsSurviveAGrayscaleRoundTripAndAreComposedWith() throws {
        let nightLight = fixture.nightLightRamp()
        fixture.setGamma(nightLight)
        let controller = try makeController()
        try controller.start()

        try controller.setFilter(.warmGrayscale(kelvin: 4000), now: Date(), fade: false)
        XCTAssertEqual(fixture.gamma(), composed(nightLight, .warmGrayscale(kelvin: 4000).gammaRampStandIn),
                       "our tint (and the dimming standing in for gray) multiplies the night light's ramp instead of replacing it")

        try controller.setFilter(.none, now: Date(), fade: false)
        XCTAssertEqual(fixture.gamma(), nightLight)
        XCTAssertEqual(savedFiles(controller), [])
    }

    func testGrayscaleWithoutCTMDimsTheScreenOverTheUsersRampsAndSaysSo() throws {
        let nightLight = fixture.nightLightRamp()
        fixture.setGamma(nightLight)
        let controller = try makeController()
        try controller.start()
        try controller.setFilter(.grayscale, now: Date(), fade: false)

        XCTAssertEqual(fixture.gamma(), composed(nightLight, .dim(0.7)), "ramps cannot desaturate: the screen is dimmed to 70 % instead")
        XCTAssertEqual(controller.shown, .grayscale)
        let expected = "grayscale: unavailable on \(fixture.outputName): the driver has no CTM (dimmed to 70 % instead)"
        let report = try XCTUnwrap(controller.report().first)
        XCTAssertEqual(report.method, "randr-gamma")
        XCTAssertEqual(report.limitations, [expected])
        XCTAssertTrue(report.description.contains(expected))

        // Wind Down's warm grayscale: the warmth and the same dimming.
        try controller.setFilter(.warmGrayscale(kelvin: 4000), now: Date(), fade: false)
        XCTAssertEqual(fixture.gamma(), composed(nightLight, ColorFilter(temperature: 4000, brightness: 0.7)))

        try controller.restore()
        XCTAssertEqual(fixture.gamma(), nightLight, "the user's own ramps come back exactly")
        XCTAssertEqual(savedFiles(controller), [])
    }

    func testAFadeTowardGrayscaleWithoutCTMDimsStepByStep() throws {
        let controller = try makeController()
        try controller.start()
        let start = Date()
        try controller.setFilter(.grayscale, now: start)
        try controller.step(now: start.addingTimeInterval(DisplayFilterController.fadeDuration / 2))
        let halfway = try XCTUnwrap(fixture.gamma().green.last)
        XCTAssertEqual(Double(halfway), 65535 * 0.85, accuracy: 1, "half the desaturation is half the dimming")
        try controller.step(now: start.addingTimeInterval(DisplayFilterController.fadeDuration))
        XCTAssertEqual(fixture.gamma(), composed(fixture.identityRamp(), .dim(0.7)))
    }

    // MARK: CTM

    func testGrayscaleWritesTheLumaMatrixToTheCTM() throws {
        fixture.createCTM()
        XCTAssertTrue(fixture.hasCTM)
        let controller = try makeController()
        let report = try XCTUnwrap(try controller.start().first)
        XCTAssertEqual(report.method, "randr-ctm")
        XCTAssertTrue(report.hasCTM)

        try controller.setFilter(.grayscale, now: Date(), fade: false)
        let matrix = try CTMEncoding.decode(fixture.ctmWords())
        for row in 0..<3 {
            XCTAssertEqual(matrix[row * 3 + 0], 0.2126, accuracy: 1e-9)
            XCTAssertEqual(matrix[row * 3 + 1], 0.7152, accuracy: 1e-9)
            XCTAssertEqual(matrix[row * 3 + 2], 0.0722, accuracy: 1e-9)
        }
        XCTAssertEqual(fixture.gamma(), fixture.identityRamp(), "plain grayscale needs no ramp change")
        XCTAssertEqual(controller.report().first?.limitations, [])

        // Warm grayscale: the matrix stays gray, the ramp carries the tint.
        try controller.setFilter(.warmGrayscale(kelvin: 4000), now: Date(), fade: false)
        XCTAssertEqual(try CTMEncoding.decode(fixture.ctmWords())[0], 0.2126, accuracy: 1e-9)
        XCTAssertEqual(fixture.gamma(), composed(fixture.identityRamp(), .warm(kelvin: 4000)))

        try controller.restore()
        XCTAssertEqual(fixture.ctmWords(), CTMEncoding.identity)
        XCTAssertEqual(fixture.gamma(), fixture.identityRamp())
    }

    // MARK: Crash recovery

    func testANewInstanceRestoresWhatACrashedOneLeft() throws {
        let original = fixture.nightLightRamp()
        fixture.setGamma(original)
        fixture.createCTM()
        let crashed = try makeController()
        try crashed.start()
        try crashed.setFilter(.warmGrayscale(kelvin: 3500), now: Date(), fade: false)
        crashed.close() // gone without restoring, as after SIGKILL; -noreset keeps the ramps
        controllers.removeAll { $0 === crashed }
        XCTAssertNoThrow(try crashed.restore(), "an exit path after the connection is gone must not crash")
        XCTAssertNotEqual(fixture.gamma(), original)
        XCTAssertNotEqual(fixture.ctmWords(), CTMEncoding.identity)
        XCTAssertFalse(savedFiles(crashed).isEmpty, "the originals wait on disk for the next start")

        let next = try makeController()
        XCTAssertEqual(try next.restoreFromSavedState(), [fixture.outputName])
        XCTAssertEqual(fixture.gamma(), original)
        XCTAssertEqual(fixture.ctmWords(), CTMEncoding.identity)
        XCTAssertEqual(savedFiles(next), [], "the originals file goes once restored")
    }

    func testStartRestoresLeftoversBeforeSavingNewOriginals() throws {
        let original = fixture.nightLightRamp()
        fixture.setGamma(original)
        let crashed = try makeController()
        try crashed.setFilter(.dim(0.5), now: Date(), fade: false)
        crashed.close()
        controllers.removeAll { $0 === crashed }

        let next = try makeController()
        try next.start()
        XCTAssertEqual(fixture.gamma(), original)
        // Had the dimmed ramps been saved as originals, leaving the filter would keep them dim.
        try next.setFilter(.warm(kelvin: 4500), now: Date(), fade: false)
        try next.setFilter(.none, now: Date(), fade: false)
        XCTAssertEqual(fixture.gamma(), original)
    }

    // MARK: Fade

    func testAFilterChangeFadesInThroughIntermediateSteps() throws {
        let controller = try makeController()
        try controller.start()
        let identity = fixture.identityRamp()
        let target = composed(identity, .warm(kelvin: 3000))
        let start = Date(timeIntervalSinceReferenceDate: 1_000_000)

        var deadline = try controller.setFilter(.warm(kelvin: 3000), now: start)
        XCTAssertEqual(fixture.gamma(), identity, "nothing snaps at the start")
        var blues: [UInt16] = [identity.blue.last!]
        while let next = deadline {
            XCTAssertLessThanOrEqual(next.timeIntervalSince(start), DisplayFilterController.fadeDuration + 1e-9)
            deadline = try controller.step(now: next)
            blues.append(fixture.gamma().blue.last!)
            guard blues.count < 100 else { return XCTFail("the fade does not end") }
        }
        XCTAssertEqual(blues.count - 1, DisplayFilterController.fadeSteps)
        XCTAssertEqual(fixture.gamma(), target)
        XCTAssertEqual(blues, blues.sorted(by: >), "each step is warmer than the last")
        XCTAssertGreaterThan(Set(blues).count, 10, "intermediate values in between")

        // A late loop skips steps instead of stretching the fade.
        let back = start.addingTimeInterval(10)
        XCTAssertNotNil(try controller.setFilter(.none, now: back))
        XCTAssertEqual(try controller.step(now: back.addingTimeInterval(1.03)), back.addingTimeInterval(1.1))
        let middle = fixture.gamma().blue.last!
        XCTAssertGreaterThan(middle, target.blue.last!)
        XCTAssertLessThan(middle, identity.blue.last!)
        XCTAssertNil(try controller.step(now: back.addingTimeInterval(5)))
        XCTAssertEqual(fixture.gamma(), identity)
        XCTAssertEqual(savedFiles(controller), [])
    }

    // MARK: Outputs coming and going

    func testAnOutputTurnedBackOnGetsTheCurrentFilter() throws {
        let controller = try makeController()
        try controller.start()
        try controller.setFilter(.warm(kelvin: 4000), now: Date(), fade: false)
        let warm = composed(fixture.identityRamp(), .warm(kelvin: 4000))
        XCTAssertEqual(fixture.gamma(), warm)

        // xrandr also fails to shrink the screen afterwards on Xvfb; the output is off all the same.
        _ = try? desk.run("xrandr", ["--output", fixture.outputName, "--off"])
        try waitUntil("the output is seen going off") { try controller.drainEvents() && controller.report().isEmpty }
        _ = try desk.run("xrandr", ["--output", fixture.outputName, "--auto"])
        try waitUntil("the output is seen coming back") { try controller.drainEvents() && !controller.report().isEmpty }

        let reopened = try RandRFixture(displayName: desk.display)
        XCTAssertEqual(reopened.gamma(), warm)
        try controller.restore()
        XCTAssertEqual(reopened.gamma(), reopened.identityRamp())
    }

    private func waitUntil(_ what: String, timeout: TimeInterval = 5, _ condition: () throws -> Bool) throws {
        if try !Wait.poll(timeout: timeout, condition) { XCTFail("timed out: \(what)") }
    }
}
