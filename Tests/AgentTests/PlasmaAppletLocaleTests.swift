import Foundation
import Harnesses
import XCTest

/// The Plasma applet in a German session (its own catalogue, from the package's contents/locale)
/// and in a right-to-left one (Hebrew, whose Qt translation turns the application's layout), as
/// Debian's plasmoidviewer shows it.
final class PlasmaAppletLocaleTests: XCTestCase {
    var desk: DesktopHarness!

    override func setUpWithError() throws {
        desk = try DesktopHarness.shared()
    }

    func testTheAppletSpeaksGermanInAGermanSession() throws {
        let agent = try LimitedTestApp.startAgent(on: desk, config: PlasmaAppletTests.config)
        var environment = agent.environment
        environment["LANGUAGE"] = "de"
        let viewer = try PlasmoidViewer(environment: environment, in: .panel)
        let shown = try viewer.shown { $0.hasPrefix("running | Standard") }
        XCTAssertTrue(shown.contains(" | Heute: < 1 Min."), shown)
        _ = try viewer.logged("compact: ", within: 10) { $0 == "< 1 Min." }
        // The mode's name too, which the agent's document gives in English.
        XCTAssertEqual(try agent.cli(["mode", "wind-down"]).status, 0)
        _ = try viewer.shown { $0.hasPrefix("running | Abendruhe") }
    }

    /// The panel's icon and time change sides right to left (the icon right of the time), as
    /// Plasma's own applets do.
    func testThePanelsIconAndTimeAreMirroredRightToLeft() throws {
        func iconAndLabel(language: String?) throws -> (icon: Int, label: Int) {
            var environment = try AgentProcess.freshEnvironment(on: desk, config: PlasmaAppletTests.config)
            environment["LANGUAGE"] = language
            let viewer = try PlasmoidViewer(environment: environment, in: .panel)
            let places = PlasmoidViewer.places(try viewer.logged("compact places: ", within: 20) {
                let places = PlasmoidViewer.places($0)
                // Laid out: the two apart (both start at the same place before the first layout).
                return places["icon"] != nil && places["label"] != nil && places["icon"]!.x != places["label"]!.x
            })
            return (places["icon"]!.x, places["label"]!.x)
        }
        let leftToRight = try iconAndLabel(language: nil)
        XCTAssertLessThan(leftToRight.icon, leftToRight.label, "left to right, the icon before the time")
        let rightToLeft = try iconAndLabel(language: "he")
        XCTAssertGreaterThan(rightToLeft.icon, rightToLeft.label, "right to left, the icon right of the time")
    }
}
