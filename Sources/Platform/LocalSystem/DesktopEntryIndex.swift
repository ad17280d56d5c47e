import FoundationEssentials
import ScreenTimeCore

/// The installed applications' desktop entries, from `$XDG_DATA_HOME/applications` and each
/// `$XDG_DATA_DIRS/applications`, earlier directories first (they win, as in the spec). Read by
/// the agent's resolver, the CLI, and the card for its launch buttons.
public enum DesktopEntryIndex {
    public static func directories(environment: [String: String]) -> [String] {
        XDGPaths.dataDirectories(environment: environment).map { $0 + "/applications" }
    }

    /// The entries that count (the earliest folder's for each id), all or only those of `ids`.
    public static func load(environment: [String: String], ids: Set<String>? = nil) -> [DesktopEntry] {
        installedFiles(environment: environment).filter { ids?.contains($0.id) ?? true }.compactMap { id, path in
            FileManager.default.contents(atPath: path).flatMap { DesktopEntry(id: id, text: String(decoding: $0, as: UTF8.self)) }
        }
    }

    /// The file of the entry `id` that counts (the earliest folder's), e.g. to start the app.
    public static func path(of id: String, environment: [String: String]) -> String? {
        installedFiles(environment: environment).first { $0.id == id }?.path
    }

    /// Every entry's id and file, an id only once: the earliest folder's.
    private static func installedFiles(environment: [String: String]) -> [(id: String, path: String)] {
        var seen = Set<String>()
        return directories(environment: environment).flatMap { files(in: $0, prefix: "") }.filter { seen.insert($0.id).inserted }
    }

    /// What to watch for new and changed entries: each entries folder and its subfolders (whose
    /// entries have ids too); for a folder that does not exist yet, its nearest existing ancestor,
    /// to see the way to it made (the watch then moves down).
    public static func directoriesToWatch(environment: [String: String]) -> Set<String> {
        var watched = Set<String>()
        for directory in directories(environment: environment) {
            if isDirectory(directory) {
                watched.formUnion([directory] + subdirectories(of: directory))
            } else if let ancestor = nearestExistingAncestor(of: directory) {
                watched.insert(ancestor)
            }
        }
        return watched
    }

    private static func nearestExistingAncestor(of path: String) -> String? {
        var path = Substring(path)
        while let slash = path.lastIndex(of: "/") {
            path = path[..<slash]
            let candidate = path.isEmpty ? "/" : String(path)
            if isDirectory(candidate) { return candidate }
        }
        return nil
    }

    private static func subdirectories(of directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.map { directory + "/" + $0 }.filter(isDirectory).flatMap { [$0] + subdirectories(of: $0) }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory
    }

    /// `.desktop` files with their ids: `kde/konsole.desktop` is `kde-konsole`.
    private static func files(in directory: String, prefix: String) -> [(id: String, path: String)] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        var result: [(id: String, path: String)] = []
        for name in names.sorted() {
            let path = directory + "/" + name
            var isDirectory: Bool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { continue }
            if isDirectory {
                result += files(in: path, prefix: prefix + name + "-")
            } else if name.hasSuffix(".desktop") {
                result.append((prefix + String(name.dropLast(".desktop".count)), path))
            }
        }
        return result
    }
}
