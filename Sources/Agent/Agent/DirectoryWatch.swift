import Logging
import Glibc
import SystemErrors

/// An inotify descriptor on some directories, for the poll loop: files written, replaced (editors
/// and sync tools rename or link a temporary file), created or deleted in them.
final class DirectoryWatch {
    let fileDescriptor: Int32
    private var watched: [String: Int32] = [:]

    init() {
        fileDescriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    }

    deinit { if fileDescriptor >= 0 { close(fileDescriptor) } }

    /// Watches exactly `directories` from now on (adding and removing watches as needed). A
    /// directory deleted or moved away since is watched anew when its path names one again.
    func watch(_ directories: Set<String>) {
        guard fileDescriptor >= 0 else { return }
        for (directory, descriptor) in watched where !directories.contains(directory) {
            inotify_rm_watch(fileDescriptor, descriptor)
            watched[directory] = nil
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVE_SELF)
        for directory in directories where watched[directory] == nil {
            let descriptor = inotify_add_watch(fileDescriptor, directory, mask)
            if descriptor >= 0 { watched[directory] = descriptor } else {
                Log.warning("cannot watch \(directory) for changes: \(Errno.current)")
            }
        }
    }

    /// Reads the pending events away; the caller looks at the files again. A watched directory
    /// that was deleted (its watch is gone) or moved (its watch follows it elsewhere) is forgotten,
    /// so that `watch` watches whatever its path names now.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = read(fileDescriptor, &buffer, buffer.count)
            guard count > 0 else { return }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: inotify_event.self) }
                if event.mask & UInt32(IN_IGNORED | IN_MOVE_SELF) != 0 { forget(event.wd, moved: event.mask & UInt32(IN_MOVE_SELF) != 0) }
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
            }
        }
    }

    private func forget(_ descriptor: Int32, moved: Bool) {
        guard let directory = watched.first(where: { $0.value == descriptor })?.key else { return }
        if moved { inotify_rm_watch(fileDescriptor, descriptor) }
        watched[directory] = nil
    }
}
