import Glibc
import SystemErrors

/// The system calls the synced folder is read and written with.
enum SyncFileShims {
    /// The names in `directory` (without `.` and `..`); nil when it cannot be opened.
    static func names(in directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The whole file as text (invalid UTF-8 repaired); nil when it cannot be read or is over `limit` bytes.
    static func text(of path: String, limit: Int = 4 << 20) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = (try? retryingInterrupts { read(descriptor, &buffer, buffer.count) }) ?? -1
            guard count >= 0 else { return nil }
            if count == 0 { break }
            bytes += buffer[0..<count]
            if bytes.count > limit { return nil }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Replaces `path` with `bytes` as a sync engine must see it: a hidden temporary file beside it
    /// (which readers and engines pass over), written, flushed to the disk, renamed over the old
    /// one, and the folder flushed, so that neither a crash nor an engine's copy sees half a file.
    static func replaceDurably(_ path: String, with bytes: [UInt8]) throws {
        let slash = path.lastIndex(of: "/")!
        let folder = String(path[..<slash])
        let temporary = folder + "/." + path[path.index(after: slash)...] + ".screentime-\(getpid()).tmp"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw SyncFolderError(path: path, reason: "cannot be written: \(Errno.current)") }
        var written = 0
        while written < bytes.count {
            let count = (try? retryingInterrupts { bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) } }) ?? -1
            guard count > 0 else {
                let error = SyncFolderError(path: path, reason: "cannot be written: \(Errno.current)")
                close(descriptor)
                unlink(temporary)
                throw error
            }
            written += count
        }
        datedAfter(path, descriptor)
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, path) == 0 else {
            let error = SyncFolderError(path: path, reason: "cannot be written: \(Errno.current)")
            unlink(temporary)
            throw error
        }
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Gives the new version (open as `descriptor`) a later whole second than the file it replaces
    /// at `path`. Engines that take a file of the same size and the same second for the one they
    /// have (rsync's quick check, and others that compare whole seconds) would otherwise pass over
    /// a rewrite made in the same second, such as "35m" replacing "40m", and the computers would
    /// keep different settings until the next rewrite.
    private static func datedAfter(_ path: String, _ descriptor: Int32) {
        var old = stat(), new = stat()
        guard stat(path, &old) == 0, fstat(descriptor, &new) == 0, new.st_mtim.tv_sec <= old.st_mtim.tv_sec else { return }
        var times = [timespec](repeating: timespec(tv_sec: old.st_mtim.tv_sec + 1, tv_nsec: 0), count: 2)
        _ = futimens(descriptor, &times)
    }

    static func makeFolder(_ path: String) throws {
        guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
            throw SyncFolderError(path: path, reason: "cannot be made: \(Errno.current)")
        }
    }

    /// 64 bits from the system's random source (SystemRandomNumberGenerator reads getrandom).
    static func randomBits() -> UInt64 { UInt64.random(in: .min ... .max) }
}

/// A file or folder of the synced folder that cannot be read or written, and why.
public struct SyncFolderError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}
