import Foundation
import KWinBackend
import ScreenTimeCore
import SessionBus
import Harnesses
import XCTest

/// Night Light on a real KWin 5.27: the virtual output has no gamma, so the state KWin reports on
/// D-Bus (`/ColorCorrect`) is what is checked, and kwinrc for what is put back.
final class KWinNightLightTests: XCTestCase {
    private var kwin: KWinHarness!
    private var bus: BusConnection!

    override func setUpWithError() throws {
        kwin = try KWinHarness.shared()
        bus = try BusConnection(address: kwin.busAddress)
    }

    override func tearDown() {
        bus?.close()
    }

    private func nightLight() throws -> KWinNightLight {
        try KWinNightLight(bus: bus, configDirectory: kwin.environment["XDG_CONFIG_HOME"]!, runtimeDirectory: kwin.root.path)
    }

    /// What KWin says of Night Light now; nil fields when it does not answer.
    private struct State: Equatable, CustomStringConvertible {
        var enabled: Bool?
        var mode: UInt32?
        var target: UInt32?
        var description: String { "enabled \(enabled.map(String.init) ?? "?"), mode \(mode.map(String.init) ?? "?"), target \(target.map(String.init) ?? "?")" }
    }

    private func state() -> State {
        State(enabled: (try? kwin.nightLight("enabled"))??.boolValue, mode: (try? kwin.nightLight("mode"))??.uint32Value,
              target: (try? kwin.nightLight("targetTemperature"))??.uint32Value)
    }

    /// kwinrc's `[NightColor]` keys as KConfig reads them.
    private func nightColor() throws -> [String: String] {
        let document = try KeyFile(parsing: String(contentsOf: kwin.kwinrc, encoding: .utf8))
        return Dictionary(uniqueKeysWithValues: document.entries(in: "NightColor").map { ($0.key, $0.value) })
    }

    /// KWin's NightColorManager: mode 3 is Constant.
    private static let constant: UInt32 = 3

    func testWarmTintTurnsNightLightOnConstantAndRestoreTurnsItOff() throws {
        try? FileManager.default.removeItem(at: kwin.kwinrc)
        let filter = try nightLight()
        XCTAssertEqual(filter.abilities.description, "grayscale unavailable before Plasma 6.6; warm tint only")
        XCTAssertNil(try filter.set(.warm(kelvin: 3400), now: Date()))
        XCTAssertTrue(eventually { self.state() == State(enabled: true, mode: Self.constant, target: 3400) }, "\(state())")
        filter.restore()
        XCTAssertTrue(eventually { self.state().enabled == false }, "\(state())")
        XCTAssertEqual(try nightColor(), [:])
    }

    func testRestorePutsTheUsersOwnNightLightBack() throws {
        try "[NightColor]\nActive=true\nMode=Times\nNightTemperature=4500\n".write(to: kwin.kwinrc, atomically: true, encoding: .utf8)
        let filter = try nightLight()
        _ = try filter.set(.warm(kelvin: 2800), now: Date())
        XCTAssertTrue(eventually { self.state() == State(enabled: true, mode: Self.constant, target: 2800) }, "\(state())")
        filter.restore()
        XCTAssertEqual(try nightColor(), ["Active": "true", "Mode": "Times", "NightTemperature": "4500"])
        XCTAssertTrue(eventually { self.state().mode != Self.constant }, "\(state())")
    }

    func testAnAgentThatDidNotRestoreIsUndoneByTheNextAtItsStart() throws {
        try "[NightColor]\nNightTemperature=5000\n".write(to: kwin.kwinrc, atomically: true, encoding: .utf8)
        _ = try nightLight().set(.warm(kelvin: 3000), now: Date())
        XCTAssertTrue(eventually { self.state() == State(enabled: true, mode: Self.constant, target: 3000) }, "\(state())")
        // The first provider is dropped without restore, as when the agent is killed.
        let next = try nightLight()
        XCTAssertEqual(try nightColor(), ["NightTemperature": "5000"])
        XCTAssertTrue(eventually { self.state().enabled == false }, "\(state())")
        // Its own change and restore work as usual after that.
        _ = try next.set(.warm(kelvin: 3200), now: Date())
        next.restore()
        XCTAssertEqual(try nightColor(), ["NightTemperature": "5000"])
    }
}
