import Foundation
import ScreenTimeCore
import Harnesses
import X11Backend
import XCTest

/// What the inspector reads of a window for its identity: `_GTK_APPLICATION_ID` and WM_TRANSIENT_FOR.
final class WindowInspectorTests: X11DesktopTestCase {
    func testReadsTheGTKApplicationIDAndTheWindowADialogBelongsTo() throws {
        let source = try EWMHFocusSource(connection: connection)
        // A class that names another app: the declared id must win over it.
        let main = try client.openWindow(class: "XTerm", instance: "xterm", title: "Main", applicationID: "org.example.Editor")
        opened.append(main)
        let dialog = try client.openWindow(class: "Editor-bin", title: "Save as", transientFor: main)
        opened.append(dialog)

        client.activate(main)
        let toMain = try source.events { $0.focusedWindow == main.id }
        guard case .focused(let mainFacts?) = toMain.last else { return XCTFail("no focus on the main window: \(toMain)") }
        XCTAssertEqual(mainFacts.declaredIDs.first, "org.example.Editor")
        XCTAssertNil(mainFacts.transientFor)

        client.activate(dialog)
        let toDialog = try source.events { $0.focusedWindow == dialog.id }
        guard case .focused(let dialogFacts?) = toDialog.last else { return XCTFail("no focus on the dialog: \(toDialog)") }
        XCTAssertEqual(dialogFacts.transientFor, main.id)
        XCTAssertEqual(dialogFacts.declaredIDs, [])

        var resolver = AppResolver(entries: [DesktopEntry(id: "debian-xterm", name: "XTerm", startupWMClass: "XTerm"),
                                             DesktopEntry(id: "org.example.Editor", name: "Editor")])
        XCTAssertEqual(resolver.identify(mainFacts).id, "org.example.Editor")
        XCTAssertEqual(resolver.identify(dialogFacts).id, "org.example.Editor", "the dialog is its owner's")
    }
}
