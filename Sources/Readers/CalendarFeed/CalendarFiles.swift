import FoundationEssentials
import LocalSystem

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

/// Finds the .ics files of the configured paths, laid out as calendar apps keep them (`CalendarTree`).
public enum CalendarFiles {
    /// A file stands for itself; a folder gives its .ics files and those of its subfolders
    /// (calendars, and accounts holding calendars). Sorted.
    public static func icsFiles(at path: String) throws(CalendarProblemError) -> [String] {
        do { return try CalendarTree(path: path).files } catch {
            switch error {
            case .missing: throw CalendarProblemError(CalendarProblem(path: path, message: "no such file or folder"))
            case .unlistable(let folder): throw CalendarProblemError(CalendarProblem(path: folder, message: "the folder cannot be listed"))
            }
        }
    }
}

/// A `CalendarProblem` as a thrown error.
public struct CalendarProblemError: Error, CustomStringConvertible {
    public let problem: CalendarProblem
    public init(_ problem: CalendarProblem) { self.problem = problem }
    public var description: String { problem.description }
}
