import Glibc

/// An inotify descriptor on some directories, for the poll loop: files written, replaced (editors
/// and sync tools rename), created or deleted in them.
final class DirectoryWatch {
    let fileDescriptor: Int32
    private var watched: [String: Int32] = [:]

    init() {
        fileDescriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    }

    deinit { if fileDescriptor >= 0 { close(fileDescriptor) } }

    /// Watches exactly `directories` from now on (adding and removing watches as needed).
    func watch(_ directories: Set<String>) {
        guard fileDescriptor >= 0 else { return }
        for (directory, descriptor) in watched where !directories.contains(directory) {
            inotify_rm_watch(fileDescriptor, descriptor)
            watched[directory] = nil
        }
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM)
        for directory in directories where watched[directory] == nil {
            let descriptor = inotify_add_watch(fileDescriptor, directory, mask)
            if descriptor >= 0 { watched[directory] = descriptor } else {
                Log.warning("cannot watch \(directory) for changes: \(String(cString: strerror(errno)))")
            }
        }
    }

    /// Reads the pending events away; the caller looks at the files again.
    func drain() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while read(fileDescriptor, &buffer, buffer.count) > 0 {}
    }
}
