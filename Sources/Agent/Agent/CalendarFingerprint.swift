import Glibc
import FoundationEssentials
import LocalSystem

/// Inode, size and modification time of the calendar files under the configured paths. The agent
/// compares fingerprints to know when to expand the calendars again, without reading them itself (it
/// does not link libical). Only the calendar files count: a sync tool's temporary files, a
/// `displayname` or an empty new folder change nothing the reader would see.
public struct CalendarFingerprint: Equatable, Sendable {
    public struct Stamp: Equatable, Sendable {
        /// A file replaced by a rename is another inode, even with the same size and time.
        public var inode: UInt64
        public var modifiedNanoseconds: Int64
        public var size: Int64
    }

    public private(set) var stamps: [String: Stamp] = [:]

    /// Stamps of the files `CalendarTree` finds at each path. A path or file that cannot be read
    /// is left out, which is a change too.
    public init(paths: [String]) {
        for path in paths {
            for file in (try? CalendarTree(path: path).files) ?? [] {
                if let stamp = Self.stamp(file) { stamps[file] = stamp }
            }
        }
    }

    private static func stamp(_ path: String) -> Stamp? {
        var info = Glibc.stat()
        guard stat(path, &info) == 0 else { return nil }
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return Stamp(inode: UInt64(info.st_ino), modifiedNanoseconds: nanoseconds, size: Int64(info.st_size))
    }
}
