import Foundation
import PrivateFiles
import XCTest

/// Folders 0700 and files 0600 under the umask most desktops use (022) and under none at all.
final class PrivateFilesTests: XCTestCase {
    var root: String!

    override func setUpWithError() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("private-files-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let previous = umask(0o022)
        addTeardownBlock { [root] in
            umask(previous)
            try? FileManager.default.removeItem(atPath: root!)
        }
    }

    func mode(_ path: String) -> mode_t {
        var status = stat()
        XCTAssertEqual(lstat(path, &status), 0, path)
        return status.st_mode & 0o7777
    }

    func testFoldersAndFilesAreMadePrivateUnderUmask022AndUmask0() throws {
        for mask: mode_t in [0o022, 0] {
            umask(mask)
            let folder = root + "/\(mask)/state/screentime"
            try PrivateFiles.makeFolder(folder)
            XCTAssertEqual(mode(root + "/\(mask)"), 0o700, "a missing parent is made 0700 too (umask \(mask))")
            XCTAssertEqual(mode(root + "/\(mask)/state"), 0o700)
            XCTAssertEqual(mode(folder), 0o700)
            try PrivateFiles.write(Array("week\n".utf8), to: folder + "/weekly-summary")
            XCTAssertEqual(mode(folder + "/weekly-summary"), 0o600)
            XCTAssertEqual(try String(contentsOfFile: folder + "/weekly-summary", encoding: .utf8), "week\n")
            try PrivateFiles.makeFile(folder + "/screentime.db")
            XCTAssertEqual(mode(folder + "/screentime.db"), 0o600)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder).sorted(), ["screentime.db", "weekly-summary"],
                           "no temporary file is left")
        }
    }

    /// An earlier version made them with the umask's modes; the next write narrows them.
    func testAnExistingFolderAndFileOfTheUsersAreNarrowed() throws {
        let folder = root + "/screentime"
        XCTAssertEqual(mkdir(folder, 0o755), 0)
        XCTAssertTrue(FileManager.default.createFile(atPath: folder + "/last-week.html", contents: Data("old".utf8),
                                                     attributes: [.posixPermissions: 0o644]))
        try PrivateFiles.makeFolder(folder)
        try PrivateFiles.write(Array("new".utf8), to: folder + "/last-week.html")
        XCTAssertEqual(mode(folder), 0o700)
        XCTAssertEqual(mode(folder + "/last-week.html"), 0o600)
        XCTAssertEqual(try String(contentsOfFile: folder + "/last-week.html", encoding: .utf8), "new")
    }

    func testAModeTheCallerKeepsIsExact() throws {
        umask(0o077)
        try PrivateFiles.write(Array("[limits]\n".utf8), to: root + "/config", mode: 0o640)
        XCTAssertEqual(mode(root + "/config"), 0o640)
    }

    /// A link planted where the temporary file goes is replaced, never followed.
    func testWriteNeverFollowsALinkAtTheTemporaryName() throws {
        let target = root + "/elsewhere"
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: target))
        XCTAssertEqual(symlink(target, root + "/file.tmp-\(getpid())"), 0)
        try PrivateFiles.write(Array("mine".utf8), to: root + "/file")
        XCTAssertEqual(try String(contentsOfFile: target, encoding: .utf8), "theirs")
        XCTAssertEqual(try String(contentsOfFile: root + "/file", encoding: .utf8), "mine")
    }

    func testAWriteThatCannotBeMadeNamesTheFile() {
        XCTAssertThrowsError(try PrivateFiles.write([1], to: root + "/missing/file")) { error in
            XCTAssertTrue("\(error)".hasPrefix(root + "/missing/file: cannot be written: No such file or directory"), "\(error)")
        }
    }

    // MARK: The runtime folder

    func testAMissingRuntimeFolderIsMadeTheUsersAlone() throws {
        umask(0)
        try PrivateFiles.makeOwnFolder(root + "/screentime-\(getuid())")
        XCTAssertEqual(mode(root + "/screentime-\(getuid())"), 0o700)
    }

    /// Issue 19: another user made `/tmp/screentime-<uid>` first, open to all (as root, the
    /// folder is given to nobody, uid 65534, to stand for them).
    func testAnotherUsersRuntimeFolderIsRefused() throws {
        let folder = root + "/screentime-\(getuid())"
        XCTAssertEqual(mkdir(folder, 0o700), 0)
        XCTAssertEqual(chmod(folder, 0o777), 0)
        XCTAssertEqual(chown(folder, 65534, 65534), 0, "the tests run as root")
        XCTAssertThrowsError(try PrivateFiles.makeOwnFolder(folder)) { error in
            XCTAssertTrue("\(error)".contains("belongs to uid 65534, not to you (uid 0)"), "\(error)")
        }
        XCTAssertEqual(mode(folder), 0o777, "left as it is")
    }

    func testARuntimeFolderWritableByOthersOrALinkIsRefused() throws {
        let open = root + "/open"
        XCTAssertEqual(mkdir(open, 0o700), 0)
        XCTAssertEqual(chmod(open, 0o1777), 0)
        XCTAssertThrowsError(try PrivateFiles.makeOwnFolder(open)) { error in
            XCTAssertTrue("\(error)".contains("is writable by others (mode 1777)"), "\(error)")
        }
        let mine = root + "/mine"
        XCTAssertEqual(mkdir(mine, 0o700), 0)
        XCTAssertEqual(symlink(mine, root + "/link"), 0)
        XCTAssertThrowsError(try PrivateFiles.makeOwnFolder(root + "/link")) { error in
            XCTAssertTrue("\(error)".contains("is a symbolic link"), "\(error)")
        }
        try Data().write(to: URL(fileURLWithPath: root + "/file"))
        XCTAssertThrowsError(try PrivateFiles.makeOwnFolder(root + "/file")) { error in
            XCTAssertTrue("\(error)".contains("is not a folder"), "\(error)")
        }
    }

    func testTheUsersOwnRuntimeFolderReadableByOthersIsNarrowed() throws {
        let folder = root + "/screentime-\(getuid())"
        XCTAssertEqual(mkdir(folder, 0o755), 0)
        try PrivateFiles.makeOwnFolder(folder)
        XCTAssertEqual(mode(folder), 0o700)
    }
}
