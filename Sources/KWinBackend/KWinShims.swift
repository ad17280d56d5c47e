import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The only C calls of the KWin backend: files written whole (private to the user, as KDE keeps its
/// configuration; `Data.write(options: .atomic)` would leave them readable by all).
enum KWinShims {
    /// Writes `text` to a temporary file beside `path` and renames it over `path` (its folder
    /// made, private to the user, when missing), so KWin never reads half a file.
    static func writeAtomically(_ text: String, to path: String) throws {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        if !folder.isEmpty && !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true,
                                                        attributes: [.posixPermissions: 0o700])
            } catch {
                throw KWinError.file(path: folder, reason: "cannot be made")
            }
        }
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw KWinError.file(path: path, reason: "cannot be written: \(lastError())") }
        let bytes = Array(text.utf8)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let reason = lastError()
                close(descriptor)
                unlink(temporary)
                throw KWinError.file(path: path, reason: "cannot be written: \(reason)")
            }
            written += count
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let reason = lastError()
            unlink(temporary)
            throw KWinError.file(path: path, reason: "cannot be written: \(reason)")
        }
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
