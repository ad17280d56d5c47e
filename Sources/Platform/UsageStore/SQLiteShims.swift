import CSQLite
import Glibc

// The one file of this module that calls sqlite3 (and the C library). Everything above it sees
// `SQLiteDatabase`, `Statement` and `StoreError`, never a raw handle or result code.

/// The inode number of the file at `path` (stat(2)), nil when there is none. Asked at every flush:
/// FileManager's attributes would also read /etc/passwd and /etc/group for the owner's names, and
/// the extended attributes.
func fileNumber(atPath path: String) -> UInt64? {
    var status = stat()
    return stat(path, &status) == 0 ? UInt64(status.st_ino) : nil
}

/// Tells sqlite3 to copy bound text, since Swift's temporary C strings live only for the call.
private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A value bound to a statement parameter.
enum SQLiteValue {
    case integer(Int64)
    case real(Double)
    case text(String)
    case null
}

/// One open connection. Closed when the last reference to it (its statements hold one) goes away.
final class SQLiteDatabase {
    let path: String
    private let handle: OpaquePointer

    /// Opens `path`: read-write and created when missing, or read-only. `immutable` (read-only
    /// only) reads the database file alone, without its log or shared index.
    init(path: String, readOnly: Bool, immutable: Bool = false) throws {
        self.path = path
        // URIs on: `ATTACH` of a read-only copy (see `UsageDatabase`) needs them; a plain path is
        // still a plain path.
        // No connection mutex: a connection is used from one thread at a time (the agent's loop,
        // a command), and sqlite3 would otherwise lock it around every call of every statement.
        let flags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
        _ = Self.configureOnce
        let name = immutable ? Self.uri(path, options: "immutable=1") : path
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(name, &opened, flags, nil)
        guard let opened else {
            // Only when sqlite3 cannot even allocate a connection.
            throw StoreError.sqlite(path: path, code: code, message: String(cString: sqlite3_errstr(code)), sql: nil)
        }
        guard code == SQLITE_OK else {
            let error = StoreError.from(code: code, message: String(cString: sqlite3_errmsg(opened)), path: path, sql: nil)
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
    }

    /// Process-wide settings, made before the first open initializes sqlite3.
    private static let configureOnce: Void = { _ = screentime_sqlite3_disable_memory_statistics() }()

    /// `path` as an sqlite3 URI with `options` ("mode=ro", "immutable=1").
    static func uri(_ path: String, options: String) -> String {
        let escaped = path.map { character -> String in
            switch character {
            case "%": "%25"
            case "?": "%3f"
            case "#": "%23"
            default: String(character)
            }
        }.joined()
        return "file:\(escaped)?\(options)"
    }

    deinit {
        // Statements keep their connection alive, so none is left unfinalized here.
        sqlite3_close_v2(handle)
    }

    /// Runs SQL whose rows, if any, nobody wants (DDL, pragmas that set, transactions).
    func exec(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil), sql: sql)
    }

    func prepare(_ sql: String) throws -> Statement {
        var prepared: OpaquePointer?
        try check(sqlite3_prepare_v2(handle, sql, -1, &prepared, nil), sql: sql)
        guard let prepared else {
            // sqlite3 gives no statement for SQL that is only whitespace or comments.
            throw StoreError.sqlite(path: path, code: SQLITE_MISUSE, message: "no statement in SQL", sql: sql)
        }
        return Statement(database: self, handle: prepared, sql: sql)
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE on this connection.
    var changes: Int { Int(sqlite3_changes(handle)) }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Whether sqlite3 opened the file read-only although asked for read-write (a read-only file,
    /// directory or file system).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// Turns a sqlite3 result code into a `StoreError` carrying the connection's message, path and SQL.
    fileprivate func check(_ code: Int32, sql: String?) throws {
        switch code {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE: return
        default: throw StoreError.from(code: code, message: String(cString: sqlite3_errmsg(handle)), path: path, sql: sql)
        }
    }
}

/// A prepared statement, finalized when released.
final class Statement {
    enum Step { case row, done }

    let sql: String
    private let database: SQLiteDatabase
    private let handle: OpaquePointer

    fileprivate init(database: SQLiteDatabase, handle: OpaquePointer, sql: String) {
        self.database = database
        self.handle = handle
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to parameters 1, 2, … in order.
    func bind(_ values: SQLiteValue...) throws { try bind(values) }

    func bind(_ values: [SQLiteValue]) throws {
        reset()
        // Values left from the last run stay bound where none is given now (an insert of every
        // interval binds them all: no clearing then).
        if values.count < sqlite3_bind_parameter_count(handle) { try check(sqlite3_clear_bindings(handle)) }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .integer(let v): try check(sqlite3_bind_int64(handle, index, v))
            case .real(let v): try check(sqlite3_bind_double(handle, index, v))
            // The explicit byte count keeps text after an embedded NUL (titles are untrusted);
            // withCString lends a native string's own bytes, where passing the String copies them.
            case .text(let v): try check(v.withCString { sqlite3_bind_text(handle, index, $0, Int32(v.utf8.count), SQLITE_TRANSIENT) })
            case .null: try check(sqlite3_bind_null(handle, index))
            }
        }
    }

    func step() throws -> Step {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return .row
        case SQLITE_DONE: return .done
        default:
            try check(code)
            return .done
        }
    }

    /// Runs a statement that returns no rows, then releases its locks.
    func run() throws {
        defer { reset() }
        while try step() == .row {}
    }

    /// Ends the current run, releasing its read snapshot; bindings stay.
    func reset() { sqlite3_reset(handle) }

    func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }
    func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }
    func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    /// A column's text; "" for NULL. Invalid UTF-8 is repaired, never trusted.
    func text(at column: Int32, interning interner: TextInterner? = nil) -> String {
        guard let bytes = sqlite3_column_text(handle, column) else { return "" }
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, column)))
        return interner?.string(buffer) ?? String(decoding: buffer, as: UTF8.self)
    }

    private func check(_ code: Int32) throws { try database.check(code, sql: sql) }
}

extension StoreError {
    /// sqlite3 could not open a file it needs (SQLITE_CANTOPEN), such as a shared index it may not create.
    var isCannotOpen: Bool {
        if case .sqlite(_, let code, _, _) = self { return code & 0xff == SQLITE_CANTOPEN }
        return false
    }

    /// Classifies a sqlite3 result code: a file that is not a database, or a damaged one, is `.corrupt`.
    fileprivate static func from(code: Int32, message: String, path: String, sql: String?) -> StoreError {
        switch code & 0xff {
        case SQLITE_NOTADB, SQLITE_CORRUPT: return .corrupt(path: path, message: message)
        default: return .sqlite(path: path, code: code, message: message, sql: sql)
        }
    }
}
