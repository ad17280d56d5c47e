import Logging
import AgentControl
import Glibc
import FoundationEssentials
import PrivateFiles
import ScreenTimeCore

/// The config file, watched with inotify: a change is read at once; a broken file is reported
/// with its line and the last good settings stay in force.
public final class ConfigSource {
    public let path: String
    public private(set) var settings: Settings
    /// The last problem, shown by `status` and `doctor` until the file is fixed.
    public private(set) var problem: String?
    private var watch: DirectoryWatch?

    public init(path: String) {
        self.path = path
        settings = Settings()
        _ = reload()
    }

    /// Reads the file; a missing file means the defaults. Returns whether the settings changed.
    @discardableResult
    public func reload() -> Bool {
        do {
            let new = try ConfigFile.settings(at: path)
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

    /// Watches the file's directory (editors replace files by renaming), and the directory of the
    /// file a symlinked config points to; calls `changed` when an edit changed the settings.
    func startWatching(through watches: FileWatches, changed: @escaping (Date) -> Void) {
        try? PrivateFiles.makeFolder(ConfigEditor.directory(of: path))
        watch = watches.watcher { [unowned self] now in
            // The link may now point elsewhere: the watched directories are brought up to date too.
            watchPathAndTarget()
            if reload() { changed(now) }
        }
        watchPathAndTarget()
    }

    private func watchPathAndTarget() {
        watch?.watch([ConfigEditor.directory(of: path), ConfigEditor.directory(of: ConfigEditor.target(of: path))])
    }
}
