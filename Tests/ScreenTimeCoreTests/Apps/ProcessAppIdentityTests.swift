@testable import ScreenTimeCore
import XCTest

final class ProcessAppIdentityTests: XCTestCase {
    let userSlice = "0::/user.slice/user-1000.slice/user@1000.service/app.slice/"

    func testFlatpakIDFromItsInfoFile() {
        let identity = ProcessAppIdentity(flatpakInfo: "[Application]\nname=org.gnome.Calculator\nruntime=runtime/x\n",
                                          cgroup: userSlice + "app-flatpak-org.gnome.Calculator-1234.scope\n",
                                          parentCGroup: "0::/user.slice/user-1000.slice/session-2.scope\n")
        XCTAssertEqual(identity.declaredIDs, ["org.gnome.Calculator"])
        XCTAssertNil(ProcessAppIdentity.flatpakID(fromInfo: "[Instance]\nname=x\n"))
    }

    func testLaunchersUnitNamesTheDesktopID() {
        XCTAssertEqual(ProcessAppIdentity.desktopID(fromUnit: "app-gnome-debian\\x2dxterm-5678.scope"), "debian-xterm")
        XCTAssertEqual(ProcessAppIdentity.desktopID(fromUnit: "app-org.gnome.Calculator-5678.scope"), "org.gnome.Calculator")
        XCTAssertEqual(ProcessAppIdentity.desktopID(fromUnit: "app-org.kde.konsole@0a1b2c.service"), "org.kde.konsole")
        XCTAssertEqual(ProcessAppIdentity.desktopID(fromUnit: "app-kde-org.kde.dolphin@0a1b2c.service"), "org.kde.dolphin")
        XCTAssertEqual(ProcessAppIdentity.desktopID(fromUnit: "app-firefox.service"), "firefox")
        XCTAssertNil(ProcessAppIdentity.desktopID(fromUnit: "app-5678.scope"))
        XCTAssertNil(ProcessAppIdentity.desktopID(fromUnit: "vte-spawn-0a1b.scope"))
        XCTAssertNil(ProcessAppIdentity.desktopID(fromUnit: "session-2.scope"))
        XCTAssertNil(ProcessAppIdentity.desktopID(fromUnit: "app.slice"))
    }

    func testAUnitInheritedFromTheParentIsNotTheApp() {
        let xtermScope = userSlice + "app-gnome-debian\\x2dxterm-5678.scope\n"
        // xterm itself, put there by the launcher.
        XCTAssertEqual(ProcessAppIdentity(cgroup: xtermScope, parentCGroup: "0::/user.slice/user-1000.slice/session-2.scope\n").declaredIDs,
                       ["debian-xterm"])
        XCTAssertEqual(ProcessAppIdentity(cgroup: xtermScope).declaredIDs, ["debian-xterm"], "the parent gone")
        // A program started from that xterm's shell.
        XCTAssertEqual(ProcessAppIdentity(cgroup: xtermScope, parentCGroup: xtermScope).declaredIDs, [])
    }

    /// GLib's launcher (`gtk-launch`, GIO menus and docks) names the entry in the environment it
    /// starts the program with, and the program's pid beside it: its children inherit both.
    func testTheEntryGLibsLauncherStartedTheProcessFrom() {
        let kcalc = ProcessAppIdentity(pid: 4242, launchedDesktopFile: "/usr/share/applications/org.kde.kcalc.desktop",
                                       launchedDesktopFilePID: "4242")
        XCTAssertEqual(kcalc.declaredIDs, ["org.kde.kcalc"])
        var child = kcalc
        child.pid = 4250
        XCTAssertEqual(child.declaredIDs, [], "a program started from the launched one's shell")
        child.launchedDesktopFilePID = nil
        XCTAssertEqual(child.declaredIDs, [])
        // After the launcher's unit, which names the same app anyway.
        var scoped = kcalc
        scoped.cgroup = userSlice + "app-gnome-debian\\x2dxterm-5678.scope\n"
        XCTAssertEqual(scoped.declaredIDs, ["debian-xterm", "org.kde.kcalc"])

        XCTAssertEqual(ProcessAppIdentity.desktopID(fromPath: "/usr/share/applications/kde4/kate.desktop"), "kde4-kate")
        XCTAssertEqual(ProcessAppIdentity.desktopID(fromPath: "/home/u/.local/share/flatpak/exports/share/applications/org.x.Y.desktop"),
                       "org.x.Y")
        XCTAssertEqual(ProcessAppIdentity.desktopID(fromPath: "/tmp/launchers/tool.desktop"), "tool", "outside any applications folder")
        XCTAssertEqual(ProcessAppIdentity.desktopID(fromPath: "tool.desktop"), "tool")
        XCTAssertNil(ProcessAppIdentity.desktopID(fromPath: "/usr/share/applications/.desktop"))
        XCTAssertNil(ProcessAppIdentity.desktopID(fromPath: "/usr/bin/kcalc"))
        XCTAssertNil(ProcessAppIdentity.desktopID(fromPath: ""))
    }

    func testSnapFromItsScopeOrExecutable() {
        let scope = userSlice + "snap.firefox.firefox-1a2b3c4d-0000-4000-8000-0123456789ab.scope\n"
        XCTAssertEqual(ProcessAppIdentity(cgroup: scope, parentCGroup: scope).declaredIDs, ["firefox_firefox"])
        XCTAssertEqual(ProcessAppIdentity.snapDesktopID(fromUnit: "snap.code.code.1a2b3c4d-0000-4000-8000-0123456789ab.scope"), "code_code")
        XCTAssertEqual(ProcessAppIdentity.snapDesktopID(fromUnit: "snap.spotify.spotify-client.service"), "spotify_spotify-client")
        XCTAssertEqual(ProcessAppIdentity(cgroup: "0::/user.slice/session-2.scope\n",
                                          executablePath: "/snap/vlc/3078/usr/bin/vlc").declaredIDs, ["vlc"])
        XCTAssertEqual(ProcessAppIdentity(executablePath: "/usr/bin/vlc").declaredIDs, [])
    }

    func testCGroupV1UsesTheSystemdHierarchy() {
        let v1 = "12:pids:/user.slice\n1:name=systemd:/user.slice/user-1000.slice/app-org.gnome.Calculator-1.scope\n"
        XCTAssertEqual(ProcessAppIdentity.unitName(fromCGroup: v1), "app-org.gnome.Calculator-1.scope")
        XCTAssertNil(ProcessAppIdentity.unitName(fromCGroup: "0::/\n"))
    }
}
