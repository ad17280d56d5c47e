import ScreenTimeCore
import XCTest

/// The one rule for names the config file keeps (issue 19): what cannot be stored as it is, is
/// refused naming the name and why, never stored as something else.
final class StoredNameTests: XCTestCase {
    func reason(_ text: String) -> String? {
        do { try StoredName.check(text) } catch { return error.message }
        return nil
    }

    func testIdsAsDesktopsNameThemAreKept() {
        for id in ["firefox", "org.gnome.Calculator", "google-chrome", "steam_app_1091500", "*", "Microsoft Teams", "日本語アプリ", "café"] {
            XCTAssertNil(reason(id), id)
            XCTAssertEqual(try AppID(checking: id).rawValue, id)
        }
    }

    /// The reproducers of issue 19, and their kin: each names the id and what is wrong with it.
    func testWhatTheConfigFileCannotKeepIsRefusedNamingIt() {
        let cases: [(String, String)] = [
            ("", "`` cannot be stored: it is empty"),
            ("#comment", "`#comment` cannot be stored: it begins with `#`, which starts a comment"),
            (" ", "` ` cannot be stored: it begins with a space"),
            ("\t", "`\\u{0009}` cannot be stored: it contains the control character U+0009"),
            ("firefox ", "`firefox ` cannot be stored: it ends with a space"),
            ("\u{A0}firefox", "`\u{A0}firefox` cannot be stored: it begins with a space"),
            ("default", "`default` cannot be stored: `default` is a key of [limits], not an app"),
            ("scope", "`scope` cannot be stored: `scope` is a key of [limits], not an app"),
            ("[general]", "`[general]` cannot be stored: it begins with `[`, which starts a section header"),
            ("[x", "`[x` cannot be stored: it begins with `[`, which starts a section header"),
            ("a=b", "`a=b` cannot be stored: it contains `=`, which separates a key from its value"),
            ("a;b", "`a;b` cannot be stored: it contains `;`, which separates the items of a list"),
            ("a:b", "`a:b` cannot be stored: it contains `:`, which separates a rule's app from its title"),
            ("-firefox", "`-firefox` cannot be stored: it begins with `-`, which takes an app out of a group"),
            ("+firefox", "`+firefox` cannot be stored: it begins with `+`, which adds an app to a group"),
            ("a\nb", "`a\\u{000A}b` cannot be stored: it contains the control character U+000A"),
            ("esc\u{1B}]0;x\u{07}", "`esc\\u{001B}]0;x\\u{0007}` cannot be stored: it contains the control character U+001B"),
            ("evil\u{202E}gpj", "`evil\\u{202E}gpj` cannot be stored: it contains the control character U+202E"),
            ("\u{301}x", "`\u{301}x` cannot be stored: it would not read back as itself from the config file"),
        ]
        for (text, expected) in cases {
            XCTAssertEqual(reason(text), expected, text.debugDescription)
        }
    }

    /// A megabyte of id is refused at once, by its length, and shown cut.
    func testALongIdIsRefusedByItsLengthAtOnce() {
        let long = String(repeating: "a", count: 1 << 20)
        let started = ContinuousClock.now
        let message = reason(long)
        XCTAssertLessThan(ContinuousClock.now - started, .milliseconds(50))
        XCTAssertEqual(message, "`\(String(repeating: "a", count: 64))…` cannot be stored: it is 1048576 bytes long (at most 255)")
        XCTAssertNil(reason(String(repeating: "é", count: 127)), "254 bytes")
        XCTAssertNotNil(reason(String(repeating: "é", count: 128)), "256 bytes")
    }

    /// The config reader holds the same rule, naming the line.
    func testTheConfigFileNamesTheLineOfANameItCannotKeep() {
        func error(_ text: String) -> String? {
            do { _ = try Settings(KeyFile(parsing: text), path: "config") } catch { return "\(error)" }
            return nil
        }
        XCTAssertEqual(error("[limits]\nfirefox = 1h\nsteam\u{1B} = 2h\n"),
                       "config:3: `steam\\u{001B}` cannot be stored: it contains the control character U+001B")
        XCTAssertEqual(error("[exemptions]\nimportant = keepassxc;+firefox\n"),
                       "config:2: `+firefox` cannot be stored: it begins with `+`, which adds an app to a group")
        XCTAssertEqual(error("[groups]\ncontent = steam;-+x\n"),
                       "config:2: `+x` cannot be stored: it begins with `+`, which adds an app to a group")
        XCTAssertEqual(error("[rules]\n\n\nvideo = fire\u{200B}fox:Video\n"),
                       "config:4: `fire\\u{200B}fox` cannot be stored: it contains the control character U+200B")
        XCTAssertNil(error("[limits]\ndefault = 2h\nscope = all\ncontent = 1h\nfirefox = 45m\n[groups]\ncontent = steam;-firefox\n[rules]\nvideo = *:Video\n"))
    }
}
