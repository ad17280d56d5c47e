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

    /// An id's file is the earliest folder's, as the spec says; a subfolder's entry has its prefix.
    func testFindsTheFileOfAnIdInTheEarliestFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("entries-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for folder in ["home/applications", "first/applications/kde", "second/applications"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["home/applications/mine.desktop", "first/applications/app.desktop", "second/applications/app.desktop",
                     "first/applications/kde/konsole.desktop", "second/applications/other.desktop"] {
            try "[Desktop Entry]\nType=Application\nName=X\n".write(to: root.appendingPathComponent(file), atomically: true, encoding: .utf8)
        }
        let environment = ["XDG_DATA_HOME": root.path + "/home", "XDG_DATA_DIRS": root.path + "/first:" + root.path + "/second"]
        XCTAssertEqual(DesktopEntryIndex.path(of: "app", environment: environment), root.path + "/first/applications/app.desktop")
        XCTAssertEqual(DesktopEntryIndex.path(of: "kde-konsole", environment: environment), root.path + "/first/applications/kde/konsole.desktop")
        XCTAssertEqual(DesktopEntryIndex.path(of: "mine", environment: environment), root.path + "/home/applications/mine.desktop")
        XCTAssertEqual(DesktopEntryIndex.path(of: "other", environment: environment), root.path + "/second/applications/other.desktop")
        XCTAssertNil(DesktopEntryIndex.path(of: "konsole", environment: environment))
        XCTAssertEqual(DesktopEntryIndex.load(environment: environment).map(\.id).sorted(), ["app", "kde-konsole", "mine", "other"])
    }
}
