import FoundationEssentials

/// What a configured calendar path stands for, as calendar apps and sync tools lay calendars out
/// on disk. A file is one calendar (an export from Google or Thunderbird). A folder gives the .ics
/// files in it and in its subfolders up to `depth` levels down, which covers:
/// - one .ics per event, named by UID (a CalDAV collection as vdirsyncer or a Nextcloud/DAVx⁵ sync keeps it);
/// - a folder of such calendars (a vdirsyncer/khal `vdir`, `displayname` and `color` beside the events),
///   or of accounts holding them (account/calendar/event.ics);
/// - Evolution's `~/.local/share/evolution/calendar`, a folder per source holding `calendar.ics`.
/// Hidden files and folders (sync tools' temporary files, `.git`) and other files are not calendars.
///
/// The reader expands `files`; the agent, which reads no calendar itself, watches `folders` and
/// stamps `files` to know when to have them expanded again.
public struct CalendarTree: Sendable {
    /// Subfolder levels read below a configured folder: account/calendar/event.ics.
    public static let depth = 2

    public enum Failure: Error, Equatable {
        case missing
        /// The folder (the path or one below it) cannot be listed.
        case unlistable(String)
    }

    /// The calendar files, sorted.
    public let files: [String]
    /// The folders whose entries make up `files`: a file's own folder, else the path and every
    /// subfolder down to `depth` (empty ones too: a sync fills them later).
    public let folders: [String]

    public init(path: String) throws(Failure) {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .missing }
        guard isFolder else {
            files = [path]
            folders = [Self.folder(of: path)]
            return
        }
        var files: [String] = [], folders: [String] = []
        try Self.walk(path, levelsBelow: Self.depth, files: &files, folders: &folders)
        self.files = files.sorted()
        self.folders = folders
    }

    /// The folder `path` is in (where a missing path would be made).
    public static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    private static func walk(_ folder: String, levelsBelow: Int, files: inout [String], folders: inout [String]) throws(Failure) {
        folders.append(folder)
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder) } catch { throw .unlistable(folder) }
        for name in names where !name.hasPrefix(".") {
            let child = folder + "/" + name
            var isFolder = false
            guard FileManager.default.fileExists(atPath: child, isDirectory: &isFolder) else { continue }
            if isFolder {
                if levelsBelow > 0 { try walk(child, levelsBelow: levelsBelow - 1, files: &files, folders: &folders) }
            } else if name.lowercased().hasSuffix(".ics") {
                files.append(child)
            }
        }
    }
}
