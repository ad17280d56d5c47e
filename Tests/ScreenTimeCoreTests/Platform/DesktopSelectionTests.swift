import ScreenTimeCore
import XCTest

/// Each probe's decision for a table of sessions: which providers the agent tries, in order, for
/// each capability.
final class DesktopSelectionTests: XCTestCase {
    typealias Kind = DesktopProviderKind

    static let wlroots: Set<String> = [DesktopSelection.foreignToplevelGlobal, DesktopSelection.extIdleGlobal,
                                       DesktopSelection.gammaGlobal, "wl_seat", "wl_output"]

    /// (session, environment, bus names, Wayland globals, focus, idle, screen filter), dummy left off.
    static let table: [(String, [String: String], Set<String>, Set<String>, [Kind], [Kind], [Kind])] = [
        ("X11 with openbox", ["XDG_SESSION_TYPE": "x11", "DISPLAY": ":0"], [], [],
         [.x11], [.x11], [.randr]),
        ("X11 without XDG_SESSION_TYPE", ["DISPLAY": ":0"], [], [],
         [.x11], [.x11], [.randr]),
        ("GNOME on Wayland (XWayland's DISPLAY is ignored)",
         ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "GNOME", "WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"],
         [DesktopSelection.gnomeShellBusName], ["wl_seat"],
         [.gnomeShell], [.mutterIdle], [.gnomeShell]),
        ("Ubuntu's GNOME on Wayland", ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "WAYLAND_DISPLAY": "wayland-0"],
         [], [],
         [.gnomeShell], [.mutterIdle], [.gnomeShell]),
        ("GNOME on X11: the extension first, EWMH after it", ["XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "GNOME", "DISPLAY": ":0"],
         [DesktopSelection.gnomeShellBusName], [],
         [.gnomeShell, .x11], [.x11], [.randr]),
        ("KDE Plasma 5.27 on Wayland", ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0"],
         [DesktopSelection.kwinBusName],
         [DesktopSelection.plasmaWindowsGlobal, DesktopSelection.extIdleGlobal, DesktopSelection.kdeIdleGlobal],
         [.plasmaWindows, .kwinScript], [.waylandIdle], [.kwinNightLight]),
        ("KDE on Wayland without the privileged global", ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "KDE", "WAYLAND_DISPLAY": "wayland-0"],
         [DesktopSelection.kwinBusName], [DesktopSelection.kdeIdleGlobal],
         [.kwinScript], [.waylandIdle], [.kwinNightLight]),
        ("KDE on X11", ["XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "KDE", "DISPLAY": ":0"],
         [DesktopSelection.kwinBusName], [],
         [.x11], [.x11], [.randr]),
        ("sway 1.7", ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "sway", "WAYLAND_DISPLAY": "wayland-1", "SWAYSOCK": "/run/sway.sock"],
         [], [DesktopSelection.foreignToplevelGlobal, DesktopSelection.kdeIdleGlobal, DesktopSelection.gammaGlobal],
         [.i3IPC, .wlrForeignToplevel], [.waylandIdle], [.wlrGamma]),
        ("i3 on X11: its scratchpad, since it ignores iconify", ["XDG_SESSION_TYPE": "x11", "XDG_CURRENT_DESKTOP": "i3", "DISPLAY": ":0", "I3SOCK": "/run/i3.sock"],
         [], [],
         [.i3IPC, .x11], [.x11], [.randr]),
        ("Hyprland", ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "Hyprland", "WAYLAND_DISPLAY": "wayland-1",
                      "HYPRLAND_INSTANCE_SIGNATURE": "abc"],
         [], wlroots,
         [.hyprland, .wlrForeignToplevel], [.waylandIdle], [.wlrGamma]),
        ("labwc, river, wayfire: wlroots protocols", ["XDG_SESSION_TYPE": "wayland", "XDG_CURRENT_DESKTOP": "labwc:wlroots", "WAYLAND_DISPLAY": "wayland-0"],
         [], wlroots,
         [.wlrForeignToplevel], [.waylandIdle], [.wlrGamma]),
        ("a Wayland compositor offering none of it", ["XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "wayland-0"],
         [], ["wl_seat"],
         [], [], []),
        ("a text console", ["XDG_SESSION_TYPE": "tty"], [], [],
         [], [], []),
    ]

    func testEachSessionGetsItsProvidersInOrderWithTheDummyLast() {
        for (session, environment, busNames, globals, focus, idle, filter) in Self.table {
            var facts = SessionFacts(environment: environment)
            facts.busNames = busNames
            facts.waylandGlobals = globals
            func kinds(_ capability: DesktopCapability) -> [Kind] {
                let list = DesktopSelection.candidates(for: capability, in: facts).map(\.kind)
                XCTAssertEqual(list.last, .dummy, "\(session): \(capability) ends with the dummy")
                return Array(list.dropLast())
            }
            XCTAssertEqual(kinds(.focus), focus, session)
            XCTAssertEqual(kinds(.minimize), focus, "\(session): minimize goes the way focus comes")
            XCTAssertEqual(kinds(.idle), idle, session)
            XCTAssertEqual(kinds(.screenFilter), filter, session)
        }
    }

    func testEveryCandidateSaysWhy() {
        for (session, environment, busNames, globals, _, _, _) in Self.table {
            var facts = SessionFacts(environment: environment)
            facts.busNames = busNames
            facts.waylandGlobals = globals
            for capability in DesktopCapability.allCases {
                for candidate in DesktopSelection.candidates(for: capability, in: facts) {
                    XCTAssertFalse(candidate.reason.isEmpty, "\(session): \(candidate.kind)")
                }
            }
        }
    }

    func testKDEOnWaylandPrefersTheOldIdleProtocolOnlyWhenTheNewOneIsMissing() {
        var facts = SessionFacts(environment: ["XDG_SESSION_TYPE": "wayland", "WAYLAND_DISPLAY": "w"])
        facts.waylandGlobals = [DesktopSelection.kdeIdleGlobal, DesktopSelection.extIdleGlobal]
        XCTAssertEqual(DesktopSelection.candidates(for: .idle, in: facts).first?.reason,
                       "the compositor offers \(DesktopSelection.extIdleGlobal)")
    }
}
