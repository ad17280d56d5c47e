import ScreenTimeCore
import XCTest

final class DesktopEntryExecTests: XCTestCase {
    /// The argument vector of an `Exec=` value as written in a file (string escapes included).
    func arguments(_ exec: String, name: String = "Text Editor", icon: String? = "accessories-text-editor",
                   terminal: Bool = false) throws -> [String] {
        try DesktopEntryExec(id: "editor", path: "/usr/share/applications/editor.desktop", name: name, icon: icon,
                             exec: DesktopEntryExec.unescapedString(exec), terminal: terminal).arguments()
    }

    func testFileAndURLFieldCodesAreDroppedWithNoFiles() throws {
        XCTAssertEqual(try arguments("gedit %U"), ["gedit"])
        XCTAssertEqual(try arguments("vlc --started-from-file %F"), ["vlc", "--started-from-file"])
        XCTAssertEqual(try arguments("app %f --then %u"), ["app", "--then"])
        // Embedded in a word, the word stays (as GLib leaves it).
        XCTAssertEqual(try arguments("app --file=%f"), ["app", "--file="])
    }

    func testIconNameAndFileFieldCodes() throws {
        XCTAssertEqual(try arguments("app %i --name %c --entry %k"),
                       ["app", "--icon", "accessories-text-editor", "--name", "Text Editor", "--entry",
                        "/usr/share/applications/editor.desktop"])
        XCTAssertEqual(try arguments("app %i %c", icon: nil), ["app", "Text Editor"])
        XCTAssertEqual(try arguments("app --class=%c-x"), ["app", "--class=Text Editor-x"])
    }

    func testPercentAndDeprecatedFieldCodes() throws {
        XCTAssertEqual(try arguments("printf 100%% %d %D %n %N %v %m done"), ["printf", "100%", "done"])
        XCTAssertEqual(try arguments(#"app "50%% off""#), ["app", "50% off"])
    }

    /// The specification's own examples: quoting undone after the string escapes.
    func testSpecificationQuotingExamples() throws {
        // A literal backslash in a quoted argument takes four in the file, a dollar sign `\\$`.
        XCTAssertEqual(try arguments(#"app "C:\\\\dir" "costs \\$5" "say \\"hi\\"" "a \\`b\\`""#),
                       ["app", #"C:\dir"#, "costs $5", #"say "hi""#, "a `b`"])
        XCTAssertEqual(try arguments(#""/opt/My App/bin/app" --title "two  spaces""#), ["/opt/My App/bin/app", "--title", "two  spaces"])
        XCTAssertEqual(try arguments(#"app "" end"#), ["app", "", "end"])
    }

    /// A shell is never involved: redirections, pipes and variables reach the program as text.
    func testNothingIsInterpretedByAShell() throws {
        XCTAssertEqual(try arguments(#"sh -c "echo \\"$HOME\\" > /tmp/x; rm -rf ~" | tee"#),
                       ["sh", "-c", #"echo "$HOME" > /tmp/x; rm -rf ~"#, "|", "tee"])
        XCTAssertEqual(try arguments("env GDK_BACKEND=x11 LANG=C app --opt=a;b"), ["env", "GDK_BACKEND=x11", "LANG=C", "app", "--opt=a;b"])
    }

    func testStringEscapesSpacesTabsAndGLibLeniency() throws {
        XCTAssertEqual(try arguments(#"app\sname\targ"#), ["app", "name", "arg"])
        XCTAssertEqual(try arguments("app   a\t\tb  "), ["app", "a", "b"])
        XCTAssertEqual(try arguments(#"app 'single $quoted' 'it'\\''s'"#), ["app", "single $quoted", "it's"])
        XCTAssertEqual(try arguments(#"app one\\ word"#), ["app", "one word"])
        XCTAssertEqual(try arguments(#"app --name="My Files""#), ["app", "--name=My Files"])
        // Field codes inside quotes, as GLib expands them.
        XCTAssertEqual(try arguments(#"sh -c 'exec app --title "%c" %f 100%%'"#), ["sh", "-c", #"exec app --title "Text Editor"  100%"#])
        XCTAssertEqual(try arguments(#"app "--class=%c""#), ["app", "--class=Text Editor"])
    }

    func testTerminalAppsRunInTheUsersTerminal() throws {
        XCTAssertEqual(try arguments("htop --tree", terminal: true), ["x-terminal-emulator", "-e", "htop", "--tree"])
    }

    func testMistakesAreErrorsNamingTheFile() {
        for (exec, expected) in [(#"app "open"#, "a quote is not closed"), ("app 100%", "ends with a lone %"),
                                 ("app %x", "%x in Exec= is not a field code"), ("app --files=%F", "%F in Exec= must be an argument on its own"),
                                 (#"app "\\q""#, #"`\q` is not an escape inside quotes"#), ("%U", "Exec= names no program")] {
            XCTAssertThrowsError(try arguments(exec), exec) { error in
                let description = "\(error)"
                XCTAssertTrue(description.hasPrefix("/usr/share/applications/editor.desktop: "), description)
                XCTAssertTrue(description.contains(expected), description)
            }
        }
    }

    func testReadsTheLaunchKeysOfAnEntry() throws {
        let entry = try DesktopEntryExec(id: "org.example.Notes", path: "/x/org.example.Notes.desktop", text: """
            [Desktop Entry]
            Type=Application
            Name=Notes
            Name[de]=Notizen
            Icon=org.example.Notes
            TryExec=notes
            Exec=notes --new-window %U
            Terminal=false

            [Desktop Action new]
            Exec=notes --other
            """)
        XCTAssertEqual(entry, DesktopEntryExec(id: "org.example.Notes", path: "/x/org.example.Notes.desktop", name: "Notes",
                                               icon: "org.example.Notes", exec: "notes --new-window %U", tryExec: "notes"))
        XCTAssertThrowsError(try DesktopEntryExec(id: "l", path: "/x/l.desktop", text: "[Desktop Entry]\nType=Link\nName=L\nURL=https://a\n")) {
            XCTAssertEqual("\($0)", "/x/l.desktop: is not an application entry (Type=Application)")
        }
        XCTAssertThrowsError(try DesktopEntryExec(id: "n", path: "/x/n.desktop", text: "[Desktop Entry]\nType=Application\nName=N\n")) {
            XCTAssertEqual("\($0)", "/x/n.desktop: has no Exec= line to start the app with")
        }
    }
}
