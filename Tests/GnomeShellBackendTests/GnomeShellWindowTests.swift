@testable import GnomeShellBackend
import ScreenTimeCore
import SessionBus
import XCTest

/// The extension's window structures decoded into the resolver's facts.
final class GnomeShellWindowTests: XCTestCase {
    func structure(id: UInt64 = 7, shellAppID: String = "", wmClass: String = "Firefox", instance: String = "Navigator",
                   sandboxed: String = "", pid: UInt32 = 0, title: String = "t", minimized: Bool? = nil) -> BusValue {
        .structure([.uint64(id), .string(shellAppID), .string(wmClass), .string(instance), .string(sandboxed),
                    .uint32(pid), .string(title)] + (minimized.map { [.bool($0)] } ?? []))
    }

    func testDeclaredIDsPutTheSandboxFirstThenTheShellsDesktopIDWithoutRepeats() throws {
        let window = try XCTUnwrap(GnomeShellWindow(structure(shellAppID: "org.mozilla.firefox", sandboxed: "org.mozilla.firefox")))
        let facts = window.facts(includingTitle: false)
        XCTAssertEqual(facts.declaredIDs, ["org.mozilla.firefox"])
        XCTAssertEqual(facts.wmClass, "Firefox")
        XCTAssertEqual(facts.wmInstance, "Navigator")
        XCTAssertNil(facts.pid)

        let gtk = try XCTUnwrap(GnomeShellWindow(structure(shellAppID: "org.gnome.TextEditor", sandboxed: "org.gnome.TextEditor.Devel")))
        XCTAssertEqual(gtk.facts(includingTitle: false).declaredIDs, ["org.gnome.TextEditor.Devel", "org.gnome.TextEditor"])
    }

    func testTheTitleIsPassedOnOnlyWhenAsked() throws {
        let window = try XCTUnwrap(GnomeShellWindow(structure(title: "<b>Inbox</b> (3)")))
        XCTAssertEqual(window.facts(includingTitle: false).title, "")
        XCTAssertEqual(window.facts(includingTitle: true).title, "<b>Inbox</b> (3)")
    }

    func testNoWindowAndMalformedStructuresDecodeToNothing() {
        XCTAssertNil(GnomeShellWindow(structure(id: 0)), "window 0: no window has focus")
        XCTAssertNil(GnomeShellWindow(.structure([.uint64(7), .string("a")])))
        XCTAssertNil(GnomeShellWindow(.string("(tssssus)")))
        XCTAssertEqual(GnomeShellWindow(structure(minimized: true))?.minimized, true)
        XCTAssertEqual(GnomeShellWindow(structure())?.minimized, false)
    }
}
