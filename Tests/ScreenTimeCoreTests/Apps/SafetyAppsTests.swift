import ScreenTimeCore
import XCTest

final class SafetyAppsTests: XCTestCase {
    func testPromptsKeyringsSettingsLockersAndShellsAreBuiltInEssential() {
        let settings = Settings()
        // Ids as the resolver names these windows (pinentry-gtk2's class is `Pinentry-gtk-2`).
        for (id, kind) in [("pinentry-gtk-2", SafetyApps.Kind.authentication), ("pinentry-qt", .authentication),
                           ("gcr-prompter", .authentication), ("polkit-gnome-authentication-agent-1", .authentication),
                           ("polkit-kde-authentication-agent-1", .authentication), ("lxpolkit", .authentication),
                           ("ssh-askpass", .authentication), ("sshaskpass", .authentication), ("gnome-keyring-daemon", .keyring), ("kwalletd5", .keyring),
                           ("gnome-control-center", .settings), ("org.gnome.Settings", .settings),
                           ("systemsettings", .settings), ("xfce4-settings-manager", .settings),
                           ("xscreensaver", .screenLocker), ("i3lock", .screenLocker), ("gnome-shell", .shell),
                           ("plasmashell", .shell), ("screentime", .agent)] {
            XCTAssertEqual(SafetyApps.kind(of: AppID(id)), kind, id)
            XCTAssertTrue(settings.isEssential(AppID(id)), id)
            XCTAssertNil(settings.limit(for: AppID(id)), id)
        }
        for id in ["firefox-esr", "debian-xterm", "pinentr", "polkit", "org.gnome.Calculator"] {
            XCTAssertNil(SafetyApps.kind(of: AppID(id)), id)
            XCTAssertFalse(settings.isEssential(AppID(id)), id)
        }
    }

    func testLookupAgreesWithTryingEveryPatternInKindOrder() {
        func firstMatch(_ id: String) -> SafetyApps.Kind? {
            SafetyApps.Kind.allCases.first { kind in SafetyApps.patterns(kind).contains { $0.matches(id) } }
        }
        let patterns = SafetyApps.Kind.allCases.flatMap(SafetyApps.patterns)
        let ids = patterns.flatMap { pattern in
            let stem = pattern.prefix.map(String.init) ?? pattern.text
            return [pattern.text, stem, stem + "-x", String(stem.dropLast()), "x" + stem]
        }
        for id in ids { XCTAssertEqual(SafetyApps.kind(of: AppID(id)), firstMatch(id), id) }
    }

    func testLockersAndShellsByWMClassAnyCase() {
        XCTAssertTrue(SafetyApps.isLockerOrShell(wmClassName: "XScreenSaver"))
        XCTAssertTrue(SafetyApps.isLockerOrShell(wmClassName: "Xfce4-panel"))
        XCTAssertFalse(SafetyApps.isLockerOrShell(wmClassName: "Pinentry-gtk-2"), "a prompt is an app window, only never limited")
    }
}
