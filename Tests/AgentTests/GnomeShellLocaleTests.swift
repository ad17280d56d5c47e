import Foundation
import Harnesses
import XCTest

/// The extension's top-bar indicator and Quick Settings menu in a German session and in a
/// right-to-left one, each on a GNOME Shell 43 of its own with a real agent,
/// read through the indicator's test-only probe.
final class GnomeShellLocaleTests: XCTestCase {
    func startAgent(on shell: GnomeShellHarness) throws -> AgentProcess {
        let environment = try AgentProcess.freshEnvironment(on: shell, config: "[general]\nidle-after = 1h\n[modes]\nautomatic = off\n")
        let agent = try AgentProcess(environment: environment, desk: shell)
        XCTAssertTrue(eventually(10) { (try? shell.indicator())?["visible"] as? Bool == true }, "the indicator shows once the agent runs")
        return agent
    }

    func testTheIndicatorSpeaksGermanInAGermanSession() throws {
        let shell = try GnomeShellHarness(language: "de")
        let agent = try startAgent(on: shell)
        func probe() -> [String: Any] { (try? shell.indicator()) ?? [:] }
        func labels() -> [String] { (probe()["items"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String } }
        XCTAssertTrue(eventually { (probe()["text"] as? String)?.range(of: #"^[0-9]+ Min\.$"#, options: .regularExpression) != nil },
                      "today's total in German: \(probe())")
        XCTAssertTrue(eventually { labels().contains("Bericht öffnen") && labels().contains("Produktivität ein") }, "\(labels())")
        // The mode's name too, which the agent's document gives in English.
        XCTAssertEqual(try agent.cli(["mode", "productivity"]).status, 0)
        XCTAssertTrue(eventually { probe()["toggleTitle"] as? String == "Produktivität" }, "\(probe())")
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }

    /// Right to left the top bar's icon is right of its text, as the shell's own indicators are.
    func testTheIndicatorsIconIsRightOfItsTextRightToLeft() throws {
        let shell = try GnomeShellHarness(language: nil, textDirection: "rtl")
        let agent = try startAgent(on: shell)
        func probe() -> [String: Any] { (try? shell.indicator()) ?? [:] }
        XCTAssertTrue(eventually {
            guard let icon = probe()["iconX"] as? Double, let label = probe()["labelX"] as? Double else { return false }
            return icon > label
        }, "the icon right of the text: \(probe())")
        XCTAssertEqual(agent.stop(), 0, agent.log)
    }
}
