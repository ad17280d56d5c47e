import FoundationEssentials

/// Something wrong with one calendar file; the others are still read.
public struct CalendarProblem: Hashable, Sendable, CustomStringConvertible {
    /// The file (or folder) concerned.
    public var path: String
    public var message: String
    /// 1-based line, when it could be found.
    public var line: Int?
    /// The UID of the event concerned, when the problem is about one event.
    public var uid: String?

    public init(path: String, message: String, line: Int? = nil, uid: String? = nil) {
        self.path = path
        self.message = message
        self.line = line
        self.uid = uid
    }

    /// `path:line: UID uid: message`, the parts that are known.
    public var description: String {
        "\(path)\(line.map { ":\($0)" } ?? ""): " + (uid.map { "UID \($0): " } ?? "") + message
    }
}

/// Finds the .ics files of the configured paths.
public enum CalendarFiles {
    /// A file stands for itself; a folder gives its .ics files and those of its immediate subfolders
    /// (the layout of vdirsyncer and similar sync tools: one folder per calendar). Sorted.
    public static func icsFiles(at path: String) throws(CalendarProblemError) -> [String] {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw CalendarProblemError(CalendarProblem(path: path, message: "no such file or folder"))
        }
        guard isFolder else { return [path] }
        var files: [String] = []
        for name in try list(path) where !name.hasPrefix(".") {
            let child = path + "/" + name
            var childIsFolder = false
            guard FileManager.default.fileExists(atPath: child, isDirectory: &childIsFolder) else { continue }
            if childIsFolder {
                files += try list(child).filter(isCalendarName).map { child + "/" + $0 }
            } else if isCalendarName(name) {
                files.append(child)
            }
        }
        return files.sorted()
    }

    private static func isCalendarName(_ name: String) -> Bool {
        !name.hasPrefix(".") && name.lowercased().hasSuffix(".ics")
    }

    private static func list(_ folder: String) throws(CalendarProblemError) -> [String] {
        do { return try FileManager.default.contentsOfDirectory(atPath: folder) }
        catch { throw CalendarProblemError(CalendarProblem(path: folder, message: "the folder cannot be listed")) }
    }
}

/// A `CalendarProblem` as a thrown error.
public struct CalendarProblemError: Error, CustomStringConvertible {
    public let problem: CalendarProblem
    public init(_ problem: CalendarProblem) { self.problem = problem }
    public var description: String { problem.description }
}
