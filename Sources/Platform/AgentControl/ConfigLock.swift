import Glibc
import FoundationEssentials
import PrivateFiles
import ScreenTimeCore
import SystemErrors

/// An exclusive lock on the config, held while an edit reads, changes and writes the file, so
/// that concurrent editors (CLI processes, the agent's D-Bus handlers) each see the others'
/// edits instead of overwriting them. It is an flock on `<config>.lock` beside the config path,
/// released when the holder closes it or dies.
final class ConfigLock {
    private let descriptor: Int32

    /// Waits at most `timeout` for the lock; a config error naming the lock file after that.
    init(configPath: String, timeout: Duration = .seconds(3)) throws {
        let path = configPath + ".lock"
        // The first edit on a fresh machine comes before the config's folder exists.
        try? PrivateFiles.makeFolder(ConfigEditor.directory(of: configPath))
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ConfigError(path: configPath, line: 0, message: "cannot open the lock file \(path): \(Errno.current)")
        }
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let failure = Errno.current
            guard failure == .wouldBlock || failure == .interrupted, ContinuousClock.now < deadline else {
                let reason = failure == .wouldBlock ? "another edit held it for \(timeout)" : failure.description
                close(descriptor)
                throw ConfigError(path: configPath, line: 0, message: "cannot lock \(path): \(reason)")
            }
            usleep(5_000)
        }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
