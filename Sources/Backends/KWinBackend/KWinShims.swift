import FoundationEssentials
import PrivateFiles

/// The KWin backend's files: written whole and private to the user (as KDE keeps its
/// configuration); the scripts and the saved Night Light keys only in a runtime folder that is
/// the user's alone, since KWin runs the scripts it is given.
enum KWinShims {
    /// Writes `text` to a temporary file beside `path` and renames it over `path` (its folder
    /// made, private to the user, when missing), so KWin never reads half a file.
    static func writeAtomically(_ text: String, to path: String) throws {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        do {
            if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) { try PrivateFiles.makeFolder(folder) }
            try PrivateFiles.write(Array(text.utf8), to: path)
        } catch {
            throw KWinError.file(path: path, reason: "\(error)")
        }
    }

    /// Checks (or makes) screentime's runtime folder before anything in it is written or read.
    static func checkRuntimeFolder(_ path: String) throws {
        do { try PrivateFiles.makeOwnFolder(path) } catch {
            throw KWinError.file(path: path, reason: "refused: \(error)")
        }
    }
}
