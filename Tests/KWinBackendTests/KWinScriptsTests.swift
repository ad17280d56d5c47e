import Foundation
@testable import KWinBackend
import XCTest

/// The scripts the agent loads are the ones kept in desktop/kwin/ for readers and packagers.
final class KWinScriptsTests: XCTestCase {
    private let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("desktop/kwin")

    func testEmbeddedScriptsAreTheFilesInDesktopKWin() throws {
        XCTAssertEqual(KWinScripts.focus + "\n", try String(contentsOf: folder.appendingPathComponent("screentime-focus.js"), encoding: .utf8))
        XCTAssertEqual(KWinScripts.minimize + "\n", try String(contentsOf: folder.appendingPathComponent("screentime-minimize.js"), encoding: .utf8))
    }
}
