import Glibc
import FoundationEssentials

/// Size and modification time of the calendar files under the configured paths (and of the folders,
/// whose time changes when a file is added or removed). The agent compares fingerprints to know when
/// to expand the calendars again, without reading them itself (it does not link libical).
public struct CalendarFingerprint: Equatable, Sendable {
    public struct Stamp: Equatable, Sendable {
        public var modifiedNanoseconds: Int64
        public var size: Int64
    }

    public private(set) var stamps: [String: Stamp] = [:]

    /// Stamps of each path, of the .ics files in a folder and in its immediate subfolders (the layout
    /// `CalendarFiles` reads). A path that cannot be read is left out, which is a change too.
    public init(paths: [String]) {
        for path in paths {
            guard let stamp = Self.stamp(path) else { continue }
            stamps[path] = stamp
            for child in Self.children(of: path) {
                guard let childStamp = Self.stamp(child) else { continue }
                if Self.isFolder(child) {
                    stamps[child] = childStamp
                    for file in Self.children(of: child) where file.lowercased().hasSuffix(".ics") {
                        if let fileStamp = Self.stamp(file) { stamps[file] = fileStamp }
                    }
                } else if child.lowercased().hasSuffix(".ics") {
                    stamps[child] = childStamp
                }
            }
        }
    }

    private static func stamp(_ path: String) -> Stamp? {
        var info = Glibc.stat()
        guard stat(path, &info) == 0 else { return nil }
        let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
        return Stamp(modifiedNanoseconds: nanoseconds, size: Int64(info.st_size))
    }

    private static func isFolder(_ path: String) -> Bool {
        var info = Glibc.stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The visible entries of a folder (none for a file).
    private static func children(of path: String) -> [String] {
        guard isFolder(path), let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return [] }
        return names.filter { !$0.hasPrefix(".") }.map { path + "/" + $0 }
    }
}
