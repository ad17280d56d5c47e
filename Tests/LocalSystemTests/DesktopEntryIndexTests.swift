import LocalSystem
import Foundation
import XCTest

final class DesktopEntryIndexTests: XCTestCase {
    func testWatchesEntryFoldersWithTheirSubfoldersAndTheNearestAncestorOfAMissingOne() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("entries-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("system/applications/kde"),
                                                withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("home"), withIntermediateDirectories: true)
        let environment = ["XDG_DATA_HOME": root.path + "/home/.local/share", "XDG_DATA_DIRS": root.path + "/system"]
        XCTAssertEqual(DesktopEntryIndex.directoriesToWatch(environment: environment),
                       [root.path + "/system/applications", root.path + "/system/applications/kde", root.path + "/home"])

        try "[Desktop Entry]\nType=Application\nName=Konsole\n"
            .write(to: root.appendingPathComponent("system/applications/kde/konsole.desktop"), atomically: true, encoding: .utf8)
        XCTAssertEqual(DesktopEntryIndex.load(environment: environment).map(\.id), ["kde-konsole"])
    }
}
