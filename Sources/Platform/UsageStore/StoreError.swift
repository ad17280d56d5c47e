/// What went wrong with the usage store. Every case names the database file.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    /// A read-only open found no database (or one the agent has not set up yet): no usage recorded.
    case missing(path: String)
    /// The database file or its folder could not be made (private to the user).
    case directory(path: String, reason: String)
    /// The file is not an SQLite database, or is damaged.
    case corrupt(path: String, message: String)
    /// The file was written by a newer screentime whose schema this one does not know.
    case unsupportedSchema(path: String, version: Int, newestKnown: Int)
    /// `extendInterval` named an interval that is not in the store.
    case unknownInterval(path: String, id: IntervalID)
    /// Any other sqlite3 failure: its result code and message, and the SQL that failed when there was one.
    case sqlite(path: String, code: Int32, message: String, sql: String?)

    public var path: String {
        switch self {
        case .missing(let path), .directory(let path, _), .corrupt(let path, _),
             .unsupportedSchema(let path, _, _), .unknownInterval(let path, _), .sqlite(let path, _, _, _):
            return path
        }
    }

    public var description: String {
        switch self {
        case .missing(let path):
            return "no usage database at \(path)"
        case .directory(let path, let reason):
            return "cannot create \(path) or its folder: \(reason)"
        case .corrupt(let path, let message):
            return "usage database \(path) is not a valid database: \(message)"
        case .unsupportedSchema(let path, let version, let newestKnown):
            return "usage database \(path) has schema version \(version), newer than this screentime knows (\(newestKnown))"
        case .unknownInterval(let path, let id):
            return "usage database \(path) has no interval \(id.rawValue)"
        case .sqlite(let path, let code, let message, let sql):
            let statement = sql.map { " in `\($0)`" } ?? ""
            return "usage database \(path): sqlite error \(code): \(message)\(statement)"
        }
    }
}
