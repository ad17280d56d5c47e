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

    func testParsesEntry() {
        XCTAssertEqual(firefox.executable, "firefox-esr")
        XCTAssertEqual(firefox.categories, ["Network", "WebBrowser"])
        XCTAssertNil(DesktopEntry(id: "x", text: "[Desktop Entry]\nType=Link\nName=X\n"))
    }

    func testMatchesByWMClassIDAndExecutable() {
        let resolver = AppResolver(entries: [firefox, calculator])
        let byClass = resolver.app(for: WindowFacts(window: WindowID(1), wmClass: "Firefox-esr", wmInstance: "Navigator"))
        XCTAssertEqual(byClass, AppInfo(id: "firefox-esr", name: "Firefox ESR", icon: "firefox-esr",
                                        categories: ["Network", "WebBrowser"]))
        let byExecutable = resolver.app(for: WindowFacts(window: WindowID(2), wmClass: "Gnome-calculator", executable: "gnome-calculator"))
        XCTAssertEqual(byExecutable.id, "org.gnome.Calculator")
        let byIDSuffix = resolver.app(for: WindowFacts(window: WindowID(3), wmClass: "calculator"))
        XCTAssertEqual(byIDSuffix.id, "org.gnome.Calculator")
    }

    func testFallsBackToLowerCasedClass() {
        let resolver = AppResolver(entries: [firefox])
        let notes = resolver.app(for: WindowFacts(window: WindowID(4), wmClass: "Notes", wmInstance: "xterm", executable: "xterm"))
        XCTAssertEqual(notes.id, "notes")
        XCTAssertEqual(notes.name, "Notes")
        XCTAssertEqual(resolver.app(for: WindowFacts(window: WindowID(5), wmClass: nil, executable: "Foo")).id, "foo")
    }
}
