import ScreenTimeCore
import XCTest

final class AppResolverTests: XCTestCase {
    let firefox = DesktopEntry(id: "firefox-esr", text: """
        [Desktop Entry]
        Type=Application
        Name=Firefox ESR
        Exec=/usr/lib/firefox-esr/firefox-esr %u
        Icon=firefox-esr
        Categories=Network;WebBrowser;
        StartupWMClass=Firefox-esr
        """)!
    let calculator = DesktopEntry(id: "org.gnome.Calculator", text: """
        [Desktop Entry]
        Type=Application
        Name=Calculator
        Exec=gnome-calculator
        Categories=GNOME;GTK;Utility;Calculator;
        """)!
    /// Debian's own entry for xterm.
    let xterm = DesktopEntry(id: "debian-xterm", name: "XTerm", categories: ["System", "TerminalEmulator"],
                             startupWMClass: "XTerm")
    let vlc = DesktopEntry(id: "vlc", name: "VLC media player", categories: ["AudioVideo"])

    func testParsesEntry() {
        XCTAssertEqual(firefox.categories, ["Network", "WebBrowser"])
        XCTAssertEqual(firefox.startupWMClass, "Firefox-esr")
        XCTAssertNil(DesktopEntry(id: "x", text: "[Desktop Entry]\nType=Link\nName=X\n"))
    }

    func testStartupWMClassMatchesExactlyAndCaseSensitively() {
        let resolver = AppResolver(entries: [firefox, xterm])
        let byClass = resolver.app(for: WindowFacts(window: WindowID(1), wmClass: "Firefox-esr", wmInstance: "Navigator"))
        XCTAssertEqual(byClass, AppInfo(id: "firefox-esr", name: "Firefox ESR", icon: "firefox-esr",
                                        categories: ["Network", "WebBrowser"]))
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(2), wmClass: "XTerm", wmInstance: "xterm")).id, "debian-xterm")
        // `xterm -class Notes`: the instance `xterm` is not `XTerm`.
        let notes = resolver.app(for: WindowFacts(window: WindowID(3), wmClass: "Notes", wmInstance: "xterm", executable: "xterm"))
        XCTAssertEqual(notes.id, "notes")
        XCTAssertEqual(notes.name, "Notes")
    }

    func testNoGuessingByExecutableOrTheTailOfADottedID() {
        let resolver = AppResolver(entries: [calculator, xterm])
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(1), wmClass: "Gnome-calculator",
                                                     wmInstance: "gnome-calculator", executable: "gnome-calculator")).id,
                       "gnome-calculator")
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(2), wmClass: "calculator")).id, "calculator")
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(3), wmClass: "Other", executable: "xterm")).id, "other")
    }

    func testDesktopIDMatchesClassOrInstanceExactlyAndTheClassUpToCaseWhenUnambiguous() {
        let resolver = AppResolver(entries: [vlc, calculator])
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(1), wmClass: "Vlc", wmInstance: "vlc")).id, "vlc")
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(2), wmClass: "VLC", wmInstance: "x")).id, "vlc")
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(3), wmClass: "org.gnome.Calculator")).id, "org.gnome.Calculator")
        // The instance is set freely (`-name`, argv[0]): only an exact id counts.
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(4), wmClass: "Player", wmInstance: "VLC")).id, "player")
        let twoCases = AppResolver(entries: [vlc, DesktopEntry(id: "VLC", name: "Another VLC")])
        XCTAssertEqual(twoCases.app(for: WindowFacts(window: WindowID(5), wmClass: "Vlc", wmInstance: "player")).id, "vlc",
                       "two ids up to case: none is chosen, the lower-cased class stays")
        XCTAssertEqual(twoCases.app(for: WindowFacts(window: WindowID(6), wmClass: "VLC")).name, "Another VLC")
    }

    func testDeclaredIDComesFirst() {
        let resolver = AppResolver(entries: [calculator, xterm])
        let gtk = resolver.app(for: WindowFacts(window: WindowID(1), wmClass: "XTerm", wmInstance: "xterm",
                                                declaredIDs: ["org.gnome.Calculator"]))
        XCTAssertEqual(gtk.id, "org.gnome.Calculator")
        XCTAssertEqual(gtk.name, "Calculator")
        // The first declared id with an entry.
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(2), wmClass: "X", declaredIDs: ["com.example.None", "debian-xterm"])).id,
                       "debian-xterm")
    }

    /// gucharmap declares `org.gnome.Charmap`, which no entry has; its WM_CLASS instance is its
    /// entry's id. A non-unique GApplication (transmission-gtk) declares a new id at every launch.
    func testADeclaredIDWithoutAnEntryIsNoEvidence() {
        let charmap = DesktopEntry(id: "gucharmap", name: "Character Map", categories: ["GNOME", "GTK", "Utility"])
        let transmission = DesktopEntry(id: "transmission-gtk", name: "Transmission", categories: ["Network", "P2P"])
        var resolver = AppResolver(entries: [charmap, transmission, xterm])
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(1), wmClass: "Gucharmap", wmInstance: "gucharmap",
                                                     declaredIDs: ["org.gnome.Charmap"])),
                       AppInfo(id: "gucharmap", name: "Character Map", icon: nil, categories: ["GNOME", "GTK", "Utility"]))
        for launch in ["com.transmissionbt.transmission_65024_1234_5678", "com.transmissionbt.transmission_65024_99_100"] {
            XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(2), wmClass: "Transmission-gtk", wmInstance: "transmission-gtk",
                                                         declaredIDs: [launch])).id, "transmission-gtk")
        }
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(3), wmClass: "XTerm", declaredIDs: ["org.example.Notes", "notes"])).id,
                       "debian-xterm", "StartupWMClass comes next")
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(4), wmClass: "Notes", declaredIDs: ["org.example.Notes"])).id,
                       "notes", "with no entry at all, the lower-cased class")
        // Not remembered for the process's other windows either: nothing was evidence.
        XCTAssertEqual(resolver.identify(WindowFacts(window: WindowID(5), wmClass: "Tool", pid: 50, declaredIDs: ["org.example.Tool"])).id,
                       "tool")
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(6), wmClass: "Other", pid: 50)).id, "other")
    }

    func testDialogsAndOtherWindowsOfAnIdentifiedProcessInherit() {
        var resolver = AppResolver(entries: [calculator, vlc])
        let main = WindowFacts(window: WindowID(1), wmClass: "Gnome-calculator", pid: 40, declaredIDs: ["org.gnome.Calculator"])
        let dialog = WindowFacts(window: WindowID(2), wmClass: "Dialog", transientFor: WindowID(1))
        let other = WindowFacts(window: WindowID(3), wmClass: "Gnome-calculator", pid: 40)
        let dialogOfDialog = WindowFacts(window: WindowID(4), wmClass: "Dialog", transientFor: WindowID(2))
        XCTAssertEqual(resolver.app(for: dialog).id, "dialog", "nothing known of its owner yet")
        XCTAssertEqual(resolver.identify(main).id, "org.gnome.Calculator")
        XCTAssertEqual(resolver.app(for: dialog).id, "org.gnome.Calculator")
        XCTAssertEqual(resolver.app(for: other).id, "org.gnome.Calculator")
        XCTAssertEqual(resolver.identify(dialog).id, "org.gnome.Calculator")
        XCTAssertEqual(resolver.identify(dialogOfDialog).id, "org.gnome.Calculator")
        // Evidence of its own beats inheritance.
        let own = WindowFacts(window: WindowID(5), wmClass: "Other", pid: 40, declaredIDs: ["vlc"], transientFor: WindowID(1))
        XCTAssertEqual(resolver.identify(own).id, "vlc")
        // A window named only by its lower-cased class is not remembered for others.
        XCTAssertEqual(resolver.identify(WindowFacts(window: WindowID(6), wmClass: "Plain", pid: 41)).id, "plain")
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(7), wmClass: "Second", pid: 41)).id, "second")
    }

    /// A window is answered from memory while its facts but the title stay the same; another
    /// window of its process identified since, or other facts under its id, are heard at once.
    func testAnAnswerFromMemoryFollowsWhatChanged() {
        var resolver = AppResolver(entries: [calculator])
        let plain = WindowFacts(window: WindowID(2), wmClass: "Gnome-calculator", title: "Untitled", pid: 40)
        XCTAssertEqual(resolver.identify(plain).id, "gnome-calculator", "no evidence yet: its class")
        var renamed = plain
        renamed.title = "Calculator — 2 + 2"
        XCTAssertEqual(resolver.app(for: renamed).id, "gnome-calculator", "a new title is the same window")
        _ = resolver.identify(WindowFacts(window: WindowID(1), wmClass: "Gnome-calculator", pid: 40, declaredIDs: ["org.gnome.Calculator"]))
        XCTAssertEqual(resolver.identify(plain).id, "org.gnome.Calculator", "its process identified since")
        XCTAssertEqual(resolver.app(for: plain).id, "org.gnome.Calculator")
        let successor = WindowFacts(window: WindowID(2), wmClass: "Vlc", pid: 41)
        XCTAssertEqual(resolver.app(for: successor).id, "vlc", "another app under a reused id is looked at afresh")
        XCTAssertEqual(resolver.identify(successor).id, "vlc")
    }

    func testFallsBackToLowerCasedClassThenInstanceThenExecutable() {
        let resolver = AppResolver(entries: [firefox])
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(1), wmClass: nil, wmInstance: "Inst")).id, "inst")
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(2), wmClass: nil, executable: "Foo")).id, "foo")
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(3), wmClass: nil)).id, "unknown")
    }
}
