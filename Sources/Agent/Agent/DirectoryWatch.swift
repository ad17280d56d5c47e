import Logging
import Glibc
import FoundationEssentials
import SystemErrors

/// The agent's one inotify instance, polled by `FileWatchSource`: each `DirectoryWatch` watches
/// its directories through it and is called when they change. A user has 128 instances
/// (`fs.inotify.max_user_instances`) for every program of the session together, and a desktop's
/// own take many; when none is left, every watch is called every `fallbackInterval` to look again.
final class FileWatches {
    /// How often the watches look again when inotify cannot be had.
    static let fallbackInterval: TimeInterval = 30
    /// The inotify descriptor to poll, or -1.
    let fileDescriptor: Int32
    /// In the order they were made, which is the order they are called in.
    private var watches: [DirectoryWatch] = []
    /// Without inotify: when the watches were last called.
    private var lastLook: Date?

    init() {
        fileDescriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fileDescriptor < 0 else { return }
        Log.warning("cannot watch files for changes (inotify: \(Errno.current); the limit is fs.inotify.max_user_instances): the "
                    + "config, calendars, desktop entries and synced folder are looked at every \(Int(Self.fallbackInterval)) s instead")
    }

    deinit { if fileDescriptor >= 0 { close(fileDescriptor) } }

    /// A watch of its own directories (none until `watch`), calling `changed` at the turn after
    /// a file in them changed.
    func watcher(_ changed: @escaping (Date) -> Void) -> DirectoryWatch {
        let watch = DirectoryWatch(self, changed)
        watches.append(watch)
        return watch
    }

    /// Without inotify, when the watches next look again.
    func nextLook(now: Date) -> Date? {
        guard fileDescriptor < 0 else { return nil }
        return lastLook.map { $0.addingTimeInterval(Self.fallbackInterval) } ?? now
    }

    /// Reads the pending events away and calls each watch that had one in its directories (every
    /// watch, without inotify).
    func dispatch(now: Date) {
        if fileDescriptor >= 0 { readEvents() } else {
            lastLook = now
            for watch in watches { watch.hasChanged = true }
        }
        for watch in watches where watch.hasChanged {
            watch.hasChanged = false
            watch.changed(now)
        }
    }

    fileprivate func watch(_ directories: Set<String>, for watch: DirectoryWatch) {
        guard fileDescriptor >= 0 else { return }
        for (directory, descriptor) in watch.watched where !directories.contains(directory) {
            watch.watched[directory] = nil
            // A directory two watches share has one watch descriptor, kept while either watches it.
            if !watches.contains(where: { $0.watched.values.contains(descriptor) }) { inotify_rm_watch(fileDescriptor, descriptor) }
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVE_SELF)
        for directory in directories where watch.watched[directory] == nil {
            let descriptor = inotify_add_watch(fileDescriptor, directory, mask)
            if descriptor >= 0 { watch.watched[directory] = descriptor } else {
                Log.warning("cannot watch \(directory) for changes: \(Errno.current)")
            }
        }
    }

    /// A watched directory that was deleted (its watch is gone) or moved (its watch follows it
    /// elsewhere) is forgotten, so that `watch` watches whatever its path names now.
    private func readEvents() {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(fileDescriptor, &buffer, buffer.count)
            guard count > 0 else { return }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                let moved = event.mask & UInt32(IN_MOVE_SELF) != 0
                if moved { inotify_rm_watch(fileDescriptor, event.wd) }
                for watch in watches {
                    for (directory, descriptor) in watch.watched where descriptor == event.wd {
                        watch.hasChanged = true
                        if moved || event.mask & UInt32(IN_IGNORED) != 0 { watch.watched[directory] = nil }
                    }
                }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
            }
        }
    }
}

/// Some directories, watched through the agent's `FileWatches`: files written, replaced (editors
/// and sync tools rename or link a temporary file), created or deleted in them. Lives as long as
/// the agent's `FileWatches`.
final class DirectoryWatch {
    private unowned let watches: FileWatches
    fileprivate let changed: (Date) -> Void
    /// Each directory and its inotify watch descriptor.
    fileprivate var watched: [String: Int32] = [:]
    fileprivate var hasChanged = false

    fileprivate init(_ watches: FileWatches, _ changed: @escaping (Date) -> Void) {
        self.watches = watches
        self.changed = changed
    }

    /// Watches exactly `directories` from now on (adding and removing watches as needed). A
    /// directory deleted or moved away since is watched anew when its path names one again.
    func watch(_ directories: Set<String>) { watches.watch(directories, for: self) }
}
