import Glibc
import FoundationEssentials
import ScreenTimeCore

/// The config file, watched with inotify: a change is read at once; a broken file is reported
/// with its line and the last good settings stay in force.
public final class ConfigSource {
    public let path: String
    public private(set) var settings: Settings
    /// The last problem, shown by `status` and `doctor` until the file is fixed.
    public private(set) var problem: String?
    private var watch: Int32 = -1

    public init(path: String) {
        self.path = path
        settings = Settings()
        _ = reload()
    }

    deinit { if watch >= 0 { close(watch) } }

    /// Reads the file; a missing file means the defaults. Returns whether the settings changed.
    @discardableResult
    public func reload() -> Bool {
        do {
            let new = try Self.settings(at: path)
            problem = nil
            guard new != settings else { return false }
            settings = new
            return true
        } catch {
            let message = "\(error)"
            if message != problem { Log.error("\(message); keeping the last good configuration") }
            problem = message
            return false
        }
    }

    /// Parses the file at `path`; the defaults when it does not exist.
    public static func settings(at path: String) throws -> Settings {
        guard let data = FileManager.default.contents(atPath: path) else {
            if FileManager.default.fileExists(atPath: path) { throw ConfigError(path: path, line: 0, message: "cannot be read") }
            return Settings()
        }
        do {
            return try Settings(KeyFile(parsing: String(decoding: data, as: UTF8.self)), path: path)
        } catch let error as KeyFile.ParseError {
            throw ConfigError(path: path, line: error.line, message: error.message)
        }
    }

    /// An inotify descriptor on the file's directory (editors replace files by renaming), or -1.
    public func startWatching() -> Int32 {
        let directory = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        watch = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard watch >= 0 else { return -1 }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)
        if inotify_add_watch(watch, directory, mask) < 0 {
            Log.warning("cannot watch \(directory) for config changes: \(String(cString: strerror(errno)))")
        }
        return watch
    }

    /// Drains the inotify events; returns whether the settings changed.
    public func handleWatchEvents() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Glibc.read(watch, &buffer, buffer.count) > 0 {}
        return reload()
    }
}
