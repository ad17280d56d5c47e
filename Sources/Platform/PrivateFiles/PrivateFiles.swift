import FoundationEssentials
import Glibc
import SystemErrors

/// The user's usage, window titles, reports and settings on disk (the config, state, cache, data
/// and runtime folders): folders 0700, files 0600, whatever the umask, as GNOME keeps its
/// screen-time history. Every folder and file screentime makes for them is made here.
public enum PrivateFiles {
    public struct Refused: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// Makes the folder `path` and any missing parents 0700 (the XDG specification's mode for the
    /// base folders it makes). `path` itself, when it exists and is the user's, is narrowed to
    /// 0700: earlier versions made it with the umask's mode.
    public static func makeFolder(_ path: String) throws {
        try makeMissing(path)
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure(path, "cannot be read") }
        guard status.st_mode & mode_t(S_IFMT) == mode_t(S_IFDIR) else { throw Refused(path: path, reason: "is not a folder") }
        if status.st_uid == geteuid() && status.st_mode & 0o7777 != 0o700 { _ = chmod(path, 0o700) }
    }

    /// Makes the folder `path` (the runtime folder, shared `/tmp` when there is no
    /// `XDG_RUNTIME_DIR`) or accepts it only when it is the user's alone: a folder, not a link,
    /// owned by them and writable by no one else (narrowed to 0700). Anything else is refused, so
    /// nothing another user put there (saved gamma ramps, a KWin script) is read or run.
    public static func makeOwnFolder(_ path: String) throws {
        try makeMissing(path)
        var status = stat()
        guard lstat(path, &status) == 0 else { throw failure(path, "cannot be read") }
        let kind = status.st_mode & mode_t(S_IFMT)
        guard kind != mode_t(S_IFLNK) else { throw Refused(path: path, reason: "is a symbolic link, not a folder of yours; remove it") }
        guard kind == mode_t(S_IFDIR) else { throw Refused(path: path, reason: "is not a folder; remove it") }
        guard status.st_uid == geteuid() else {
            throw Refused(path: path, reason: "belongs to uid \(status.st_uid), not to you (uid \(geteuid())); "
                          + "another user made it: remove it, or log in with a session that sets XDG_RUNTIME_DIR")
        }
        guard status.st_mode & 0o022 == 0 else {
            throw Refused(path: path, reason: "is writable by others (mode \(String(status.st_mode & 0o7777, radix: 8))), "
                          + "so anything in it may be theirs; remove it")
        }
        if status.st_mode & 0o7777 != 0o700 { _ = chmod(path, 0o700) }
    }

    /// Replaces `path` with `bytes`: a temporary file beside it, made with `mode` (0600 unless the
    /// file keeps another the user chose), renamed over it, so no reader sees half a file. No fsync:
    /// callers include the agent's loop, which never waits on the disk; a crash costs at most this write.
    public static func write(_ bytes: [UInt8], to path: String, mode: mode_t = 0o600) throws {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure(path, "cannot be written") }
        // The umask may have taken bits the caller asked for; the mode is exact either way.
        _ = fchmod(descriptor, mode)
        var written = 0
        while written < bytes.count {
            let count = try? retryingInterrupts { bytes[written...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } }
            guard let count, count > 0 else {
                let error = failure(path, "cannot be written")
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = failure(path, "cannot be written")
            unlink(temporary)
            throw error
        }
    }

    /// Makes `path` an empty 0600 file when missing and narrows an existing one of the user's to
    /// 0600, for a file another library opens (SQLite gives its journal the database's mode).
    public static func makeFile(_ path: String) throws {
        let descriptor = open(path, O_RDONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure(path, "cannot be made") }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0 && status.st_uid == geteuid() && status.st_mode & 0o7777 != 0o600 {
            _ = fchmod(descriptor, 0o600)
        }
    }

    /// Makes each missing folder of `path`, outermost first, 0700.
    private static func makeMissing(_ path: String) throws {
        var folder = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            folder += "/" + component
            guard mkdir(folder, 0o700) != 0 else {
                // The umask may have taken bits of a folder made here.
                _ = chmod(folder, 0o700)
                continue
            }
            // An existing folder can answer EACCES (a parent not writable) rather than EEXIST.
            var status = stat()
            guard errno == EEXIST || stat(folder, &status) == 0 else { throw failure(folder, "cannot be made") }
        }
    }

    private static func failure(_ path: String, _ what: String) -> Refused {
        Refused(path: path, reason: "\(what): \(Errno.current)")
    }
}
